package games

// Handicap limits (rules.md §1).
const (
	MinHandicap = 2 // fewer stones is an even game (0) or 让先 (1)
	MaxHandicap = 9
)

// starLine is the distance from the edge (0-based) of the corner star
// points: the 3-3 point on boards up to 12 lines, the 4-4 point above.
func starLine(size int) int {
	if size <= 12 {
		return 2
	}
	return 3
}

// HandicapPoints returns the fixed handicap placement of n stones (2..9)
// on a 9×9, 13×13 or 19×19 board, in the traditional order seen from
// Black: 2 upper right and lower left, 3 adds lower right, 4 all corners,
// 5 adds the centre, 6 the left and right sides, 7 adds the centre, 8 all
// but the centre, 9 all nine star points. ok is false for other sizes and
// counts.
func HandicapPoints(size, n int) (pts []Point, ok bool) {
	if (size != 9 && size != 13 && size != 19) || n < MinHandicap || n > MaxHandicap {
		return nil, false
	}
	lo, mid, hi := starLine(size), size/2, size-1-starLine(size)
	ur, ll, lr, ul := Point{hi, lo}, Point{lo, hi}, Point{hi, hi}, Point{lo, lo}
	centre := Point{mid, mid}
	left, right := Point{lo, mid}, Point{hi, mid}
	top, bottom := Point{mid, lo}, Point{mid, hi}
	corners := []Point{ur, ll, lr, ul}
	switch n {
	case 2, 3, 4:
		return corners[:n], true
	case 5:
		return append(corners, centre), true
	case 6:
		return append(corners, left, right), true
	case 7:
		return append(corners, left, right, centre), true
	case 8:
		return append(corners, left, right, top, bottom), true
	}
	return append(corners, left, right, top, bottom, centre), true
}

// handicapStones checks the handicap against the setup stones and returns
// every stone to place: the setup itself, or the fixed placement when a
// game of 2+ stones gives no black setup stones.
func handicapStones(size, handicap int, setup []Stone) ([]Stone, error) {
	if handicap < 0 || handicap > MaxHandicap {
		return nil, invalid("handicap", "handicap %d is outside 0..%d", handicap, MaxHandicap)
	}
	black := 0
	for _, s := range setup {
		if s.Color == Black {
			black++
		}
	}
	if handicap < MinHandicap {
		return setup, nil
	}
	if black == 0 {
		pts, ok := HandicapPoints(size, handicap)
		if !ok {
			return nil, invalid("handicap", "no fixed placement for %d stones on %d×%d; give the stones (AB)", handicap, size, size)
		}
		stones := append([]Stone(nil), setup...)
		for _, p := range pts {
			stones = append(stones, Stone{Black, p})
		}
		return stones, nil
	}
	if black != handicap {
		return nil, invalid("handicap", "handicap %d but %d black setup stones", handicap, black)
	}
	return setup, nil
}

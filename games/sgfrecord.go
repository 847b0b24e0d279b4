package games

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// From the main line of an SGF game tree to a Record. Files come from
// every server and editor there is, and many say what they mean in their
// own way; the reader takes what a file means whenever that is clear, and
// says in Record.Assumptions what it assumed. It refuses a file only when
// it cannot tell what game was played (a point that is no point, a board
// size out of range, a game that is not Go).

// gameInfo reports the properties read once per game, wherever they stand.
func gameInfo(id string) bool {
	switch id {
	case "SZ", "KM", "HA", "RU", "RE", "PB", "PW", "BR", "WR", "DT", "GM", "FF", "CA", "ER",
		"PL", "EV", "RO", "PC", "GN", "TM", "OT", "AP", "GC", "TC", "TT":
		return true
	}
	return false
}

// listProp reports the properties whose values, given twice, are merged.
func listProp(id string) bool {
	return id == "AB" || id == "AW" || id == "AE" || id == "TB" || id == "TW"
}

// Kinds of entries in the main line's stream of turns.
const (
	turnPlay  = iota // B[..] or W[..]
	turnEmpty        // an empty node of an FF[3] file: a pass
	turnSetup        // AB/AW/AE after the first move
)

// turn is one entry of the main line after the setup: a move, an empty
// node read as a pass, or setup after moves.
type turn struct {
	kind  int
	c     Color
	v     string
	off   int
	setup []sgfProp // turnSetup
	// node: the index of the node, for its comments and clock.
	node int
}

// maxSetupAfterMoves is decided: setup after moves is judged by
// replaying the record to it; past this many such nodes the record is
// read up to the last one judged, so that a hostile file cannot make the
// reader replay it thousands of times. Real files have a handful.
const maxSetupAfterMoves = 32

// maxListedNotes is decided: a note listing move numbers (omitted passes)
// names this many and counts the rest.
const maxListedNotes = 5

func recordFromNodes(nodes []sgfNode, notes []string) (*Record, error) {
	r := &Record{Size: 19, Assumptions: notes}
	note := func(f AssumptionFormat, args ...any) { r.Assumptions = append(r.Assumptions, f.text(args...)) }

	info := map[string]sgfProp{}
	dropped := map[string][]string{} // game info given more than once: the values not kept
	var setupB, setupW, setupE []sgfProp
	var tb, tw []sgfProp
	turns := make([]turn, 0, len(nodes))
	ff := 0
	nodeComments := map[int][]string{}
	type clockProp struct {
		node int
		pr   sgfProp
	}
	var clocks []clockProp
	for ni, n := range nodes {
		moves := 0
		for pi, pr := range n.props {
			dup := false
			for _, q := range n.props[:pi] {
				dup = dup || q.id == pr.id
			}
			// C too: issue 12 keeps the first of any property given twice
			// in a node, except the point lists (merged) and B/W (noted below).
			if dup && !listProp(pr.id) && pr.id != "B" && pr.id != "W" {
				if gameInfo(pr.id) {
					dropped[pr.id] = append(dropped[pr.id], pr.vals[0])
				} else {
					note(AssumedTwiceInNode, pr.id, pr.offs[0])
				}
				continue
			}
			switch {
			case gameInfo(pr.id):
				if _, ok := info[pr.id]; ok {
					dropped[pr.id] = append(dropped[pr.id], pr.vals[0])
					continue
				}
				info[pr.id] = pr
				if pr.id == "FF" {
					ff, _ = strconv.Atoi(strings.TrimSpace(pr.vals[0]))
				}
			case pr.id == "AB" || pr.id == "AW" || pr.id == "AE":
				if dup {
					note(AssumedTwiceInNodeMerge, pr.id, pr.offs[0])
				}
				if len(turns) > 0 {
					if k := len(turns) - 1; turns[k].kind == turnSetup && turns[k].node == ni {
						turns[k].setup = append(turns[k].setup, pr)
					} else {
						turns = append(turns, turn{kind: turnSetup, setup: []sgfProp{pr}, off: pr.offs[0], node: ni})
					}
					continue
				}
				switch pr.id {
				case "AB":
					setupB = append(setupB, pr)
				case "AW":
					setupW = append(setupW, pr)
				default:
					setupE = append(setupE, pr)
				}
			case pr.id == "TB":
				tb = append(tb, pr)
			case pr.id == "TW":
				tw = append(tw, pr)
			case pr.id == "B" || pr.id == "W":
				if dup {
					note(AssumedTwiceInNode, pr.id, pr.offs[0])
					continue
				}
				if moves++; moves == 2 {
					note(AssumedBothMoves, n.off)
				}
				if len(pr.vals) > 1 {
					note(AssumedMoveValues, pr.offs[0], len(pr.vals))
				}
				c := Black
				if pr.id == "W" {
					c = White
				}
				turns = append(turns, turn{kind: turnPlay, c: c, v: pr.vals[0], off: pr.offs[0], node: ni})
			case pr.id == "C":
				if t := strings.TrimSpace(strings.ToValidUTF8(pr.vals[0], "\uFFFD")); t != "" {
					nodeComments[ni] = append(nodeComments[ni], t)
				}
			case pr.id == "BL" || pr.id == "WL" || pr.id == "OB" || pr.id == "OW":
				clocks = append(clocks, clockProp{ni, pr})
			}
		}
		if len(n.props) == 0 && ni > 0 && len(turns) > 0 && ff >= 1 && ff <= 3 {
			turns = append(turns, turn{kind: turnEmpty, off: n.off, node: ni})
		}
	}
	for _, id := range sortedKeys(dropped) {
		note(AssumedGivenTimes, id, 1+len(dropped[id]), id, info[id].vals[0], bracketed(id, dropped[id]))
	}

	one := func(id string) (string, int, bool) {
		pr, ok := info[id]
		if !ok {
			return "", 0, false
		}
		return pr.vals[0], pr.offs[0], true
	}
	if v, off, ok := one("GM"); ok && strings.TrimSpace(v) != "1" && strings.TrimSpace(v) != "" {
		return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("GM[%s] is not a game of Go (GM[1])", v)}
	}
	if v, off, ok := one("SZ"); ok {
		a, b, rect := strings.Cut(v, ":")
		n, err := strconv.Atoi(strings.TrimSpace(a))
		if rect {
			if m, err2 := strconv.Atoi(strings.TrimSpace(b)); err2 != nil || m != n {
				return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("SZ[%s]: only square boards", v)}
			}
		}
		if err != nil || n < MinSize || n > MaxSize {
			return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("SZ[%s]: board size must be %d..%d", v, MinSize, MaxSize)}
		}
		r.Size = n
	}
	text := func(id string) string {
		v, _, _ := one(id)
		return clipText(strings.TrimSpace(strings.ToValidUTF8(sgfSimpleText(v), "\uFFFD")), MaxInfoText, func(n int) { note(AssumedLongText, id, n, MaxInfoText) })
	}
	r.Black = Player{Name: text("PB"), Rank: text("BR")}
	r.White = Player{Name: text("PW"), Rank: text("WR")}
	r.Date = text("DT")
	r.Event, r.Round, r.Place, r.GameName = text("EV"), text("RO"), text("PC"), text("GN")
	r.TimeLimit, r.Overtime, r.Source = text("TM"), text("OT"), text("AP")
	if tc, tt := text("TC"), text("TT"); r.Overtime == "" && tc != "" && tt != "" {
		// Fox (YuanYu) writes its byo-yomi as TC (periods) and TT (seconds
		// each) instead of OT: kept in OT's usual form.
		n, err1 := strconv.Atoi(tc)
		sec, err2 := strconv.Atoi(tt)
		if err1 == nil && err2 == nil && n > 0 && sec > 0 {
			r.Overtime = fmt.Sprintf("%dx%d byo-yomi", n, sec)
			note(AssumedFoxByoYomi, tc, tt, r.Overtime)
		}
	}
	if r.Date != "" {
		t, ok := parseDate(r.Date)
		if ok {
			r.PlayedAt = t
		} else if t, ok := parsePartialDate(r.Date); ok {
			r.PlayedAt = t
			note(AssumedDateNoDay, r.Date, t.Format("2006-01-02"))
		} else {
			note(AssumedDateUnknown, r.Date)
		}
	}

	r.Rules = Chinese()
	if v, off, ok := one("RU"); ok {
		if p, ok := Preset(v); ok {
			r.Rules = p
			if korean(v) {
				note(AssumedKoreanRules, v)
			}
		} else if rs, err := ParseRuleset(v); err == nil {
			r.Rules = rs
		} else if strings.Contains(v, "=") {
			return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("RU[%s]: %v", v, err)}
		} else {
			note(AssumedRulesUnknown, v)
		}
	}

	point := func(v string, off int) (Point, error) {
		pt, err := ParseSGFPoint(v)
		if err != nil {
			return Point{}, &SGFError{Offset: off, Msg: fmt.Sprintf("[%s] is not a point", v)}
		}
		return pt, nil
	}
	// points expands a point list, with "aa:cc" rectangles.
	points := func(props []sgfProp) ([]Point, error) {
		var out []Point
		for _, pr := range props {
			for i, v := range pr.vals {
				v = strings.TrimSpace(v)
				if v == "" || v == "tt" && r.Size <= 19 {
					continue // an empty list written as [] (or a pass point)
				}
				a, b, rect := strings.Cut(v, ":")
				p1, err := point(a, pr.offs[i])
				if err != nil {
					return nil, err
				}
				if !p1.On(r.Size) {
					return nil, &SGFError{Offset: pr.offs[i], Msg: fmt.Sprintf("%s[%s] is off the %d×%d board", pr.id, v, r.Size, r.Size)}
				}
				if !rect {
					out = append(out, p1)
					continue
				}
				p2, err := point(b, pr.offs[i])
				if err != nil {
					return nil, err
				}
				if !p2.On(r.Size) || p2.X < p1.X || p2.Y < p1.Y {
					return nil, &SGFError{Offset: pr.offs[i], Msg: fmt.Sprintf("%s[%s] is not a rectangle on the board", pr.id, v)}
				}
				for y := p1.Y; y <= p2.Y; y++ {
					for x := p1.X; x <= p2.X; x++ {
						out = append(out, Point{x, y})
					}
				}
			}
		}
		return out, nil
	}
	abs, err := points(setupB)
	if err != nil {
		return nil, err
	}
	aws, err := points(setupW)
	if err != nil {
		return nil, err
	}
	aes, err := points(setupE)
	if err != nil {
		return nil, err
	}
	abs, aws = setupPoints(abs, aws, aes, note)

	// The turns become moves: plays and passes, in order.
	ms := make([]readMove, 0, len(turns))
	var setupTurns []int // indexes into turns of setup after moves, with the moves before them
	var setupAt []int
	for ti, t := range turns {
		switch t.kind {
		case turnPlay:
			v := strings.TrimSpace(t.v)
			if v == "" || (v == "tt" && r.Size <= 19) {
				ms = append(ms, readMove{PassMove(t.c), t.node, t.off})
				continue
			}
			pt, err := point(v, t.off)
			if err != nil {
				return nil, err
			}
			ms = append(ms, readMove{Play(t.c, pt), t.node, t.off}) // off-board points are illegal moves, found by replay
		case turnEmpty:
			ms = append(ms, readMove{Move{Pass: true}, t.node, t.off}) // colour set below
		case turnSetup:
			setupTurns = append(setupTurns, ti)
			setupAt = append(setupAt, len(ms))
		}
	}

	// Handicap: HA, the setup stones, and Fox's handicap stones written as
	// Black's first moves.
	haGiven, ha := false, 0
	if v, _, ok := one("HA"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > MaxHandicap {
			note(AssumedHandicapBad, v, MaxHandicap)
		} else {
			haGiven, ha = true, n
		}
	}
	if len(abs) == 0 && len(aws) == 0 && len(setupTurns) == 0 {
		k := 0
		for k < len(ms) && ms[k].m.Color == Black && !ms[k].m.Pass {
			k++
		}
		// With HA[k] too (not only HA[0] or none): the stones would else
		// stand on the star points and Black's first move on one of them.
		if k >= MinHandicap && k <= MaxHandicap && (ha < MinHandicap || k == ha) && distinctPlays(ms[:k], r.Size) {
			for _, m := range ms[:k] {
				abs = append(abs, m.m.Point)
			}
			if haGiven {
				note(AssumedFoxHandicapHA, ha, k, k)
			} else {
				note(AssumedFoxHandicap, k, k)
			}
			ms = ms[k:]
			for i := range setupAt {
				setupAt[i] -= k
			}
			ha, haGiven = k, true
		}
	}
	for _, pt := range abs {
		r.Setup = append(r.Setup, Stone{Black, pt})
	}
	for _, pt := range aws {
		r.Setup = append(r.Setup, Stone{White, pt})
	}
	firstMove := Empty
	for _, m := range ms {
		if m.m.Color != Empty {
			firstMove = m.m.Color
			break
		}
	}
	switch {
	case haGiven && ha >= MinHandicap && len(abs) == 0:
		pts, ok := HandicapPoints(r.Size, ha)
		if !ok {
			note(AssumedHandicapNoFix, ha, r.Size, r.Size)
			break
		}
		stones := make([]Stone, 0, len(pts)+len(r.Setup))
		for _, pt := range pts {
			stones = append(stones, Stone{Black, pt})
		}
		r.Setup = append(stones, r.Setup...)
		r.Handicap = ha
		note(AssumedHandicapStars, ha)
	case haGiven && ha >= MinHandicap && len(abs) != ha:
		if len(abs) >= MinHandicap && len(abs) <= MaxHandicap && len(aws) == 0 {
			r.Handicap = len(abs)
			note(AssumedHandicapAB, ha, len(abs), len(abs))
		} else {
			note(AssumedHandicapEven, ha, len(abs), len(aws))
		}
	case haGiven:
		r.Handicap = ha
	case len(abs) >= MinHandicap && len(abs) <= MaxHandicap && len(aws) == 0 && firstMove == White:
		r.Handicap = len(abs)
		note(AssumedHandicapNoHA, len(abs), len(abs))
	}

	// Who moves first: PL, else the first move.
	usual := Black
	if r.Handicap >= MinHandicap {
		usual = White
	}
	first := usual
	if v, off, ok := one("PL"); ok {
		c, err := ParseColor(strings.TrimSpace(v))
		switch {
		case err != nil || c == Empty:
			note(AssumedPLBad, v, off)
		default:
			first = c
		}
	} else if firstMove != Empty && firstMove != usual {
		first = firstMove
		note(AssumedFirstMove, firstMove, firstMove)
	}
	if first != usual {
		r.First = first
	}

	// Turns alternate; a colour that plays twice in a row passed between
	// (FF[3] and many servers leave passes out), and an empty node of an
	// FF[3] file is a pass.
	r.Moves = make([]Move, 0, len(ms)+8)
	after := make([]int, len(nodes)) // moves played once a node is read; -1: the node has none
	for i := range after {
		after[i] = -1
	}
	var omitted, empties []int
	next := first
	si := 0
	cutNode := len(nodes) // the node of setup the record is read up to
	for i := 0; i <= len(ms) && cutNode == len(nodes); i++ {
		for si < len(setupAt) && setupAt[si] == i {
			t := turns[setupTurns[si]]
			si++
			if si > maxSetupAfterMoves {
				note(AssumedSetupTooMany, maxSetupAfterMoves, len(r.Moves))
				cutNode = t.node
				break
			}
			m, ok, stop := setupAsMove(r, t, next, note)
			if stop {
				cutNode = t.node
				break
			}
			if ok {
				r.Moves = append(r.Moves, m)
				after[t.node] = len(r.Moves)
				next = next.Opponent()
			}
		}
		if cutNode < len(nodes) || i == len(ms) {
			break
		}
		m := ms[i]
		if m.m.Color == Empty {
			m.m.Color = next
			empties = append(empties, len(r.Moves)+1)
		}
		if m.m.Color != next {
			r.Moves = append(r.Moves, PassMove(next))
			omitted = append(omitted, len(r.Moves))
			next = next.Opponent()
		}
		r.Moves = append(r.Moves, m.m)
		after[m.node] = len(r.Moves)
		next = next.Opponent()
	}
	number := make([]int, len(nodes))
	for ni, cur := 0, 0; ni < len(nodes); ni++ {
		if after[ni] >= 0 {
			cur = after[ni]
		}
		number[ni] = cur
	}
	if len(omitted) > 0 {
		note(AssumedOmittedPasses, plural(len(omitted)), listNumbers(omitted))
	}
	if len(empties) > 0 {
		note(AssumedEmptyNodes, plural(len(empties)), ff, plural(len(empties)), listNumbers(empties))
	}

	// Comments and clocks, numbered by the moves.
	if v, _, ok := one("GC"); ok && strings.TrimSpace(v) != "" {
		r.Comments = append(r.Comments, Comment{Move: 0, Text: strings.TrimSpace(strings.ToValidUTF8(v, "\uFFFD"))})
	}
	for ni := range nodes {
		cs, ok := nodeComments[ni]
		if !ok {
			continue
		}
		if ni >= cutNode {
			continue
		}
		at := number[ni]
		t := strings.Join(cs, "\n")
		if k := len(r.Comments); k > 0 && r.Comments[k-1].Move == at {
			r.Comments[k-1].Text += "\n" + t
		} else {
			r.Comments = append(r.Comments, Comment{Move: at, Text: t})
		}
	}
	for i := range r.Comments {
		c := &r.Comments[i]
		c.Text = clipText(c.Text, MaxCommentText, func(n int) {
			if c.Move > 0 {
				note(AssumedLongMoveNote, c.Move, n, MaxCommentText)
			} else {
				note(AssumedLongGameNote, n, MaxCommentText)
			}
		})
	}
	for _, c := range clocks {
		if c.node >= cutNode {
			continue
		}
		at := number[c.node]
		col := Black
		if c.pr.id == "WL" || c.pr.id == "OW" {
			col = White
		}
		f, err := strconv.ParseFloat(strings.TrimSpace(c.pr.vals[0]), 64)
		if err != nil || f < 0 || math.IsInf(f, 0) {
			note(AssumedClockBad, c.pr.id, c.pr.vals[0], c.pr.offs[0])
			continue
		}
		k := len(r.Clock) - 1
		if k < 0 || r.Clock[k].Move != at || r.Clock[k].Color != col {
			r.Clock = append(r.Clock, Clock{Move: at, Color: col})
			k++
		}
		if c.pr.id == "BL" || c.pr.id == "WL" {
			r.Clock[k].Seconds = f
		} else {
			r.Clock[k].Periods = int(f)
		}
	}

	if v, off, ok := one("KM"); ok {
		k, msg := readKomi(v, r.Rules, r.Handicap)
		if msg != "" {
			note(AssumedKomiAtByte, msg, off)
		}
		r.Komi = k
	} else {
		r.Komi = DefaultKomi(r.Rules, r.Handicap)
		note(AssumedNoKomi, strconv.FormatFloat(r.Komi, 'f', -1, 64))
	}

	endedByPasses := len(r.Moves) >= r.Rules.PassesToEnd
	for i := len(r.Moves) - r.Rules.PassesToEnd; endedByPasses && i < len(r.Moves); i++ {
		endedByPasses = r.Moves[i].Pass
	}
	counted := endedByPasses || len(tb)+len(tw) > 0
	if v, _, ok := one("RE"); ok {
		rr, res := claimedResult(v, r.Rules, counted)
		r.Result = res
		switch {
		case rr.known && rr.note == "":
		case rr.winnerOnly && counted:
			note(AssumedResultCounted, rr.note, r.Result)
		case rr.winnerOnly:
			note(AssumedResultUnknown, rr.note)
		default: // made from a format by readResult
			r.Assumptions = append(r.Assumptions, rr.note)
		}
		if r.Result != "" {
			r.End, r.EndBy = endFromResult(rr.res, counted)
		} else if t := text("RE"); t != "" {
			// Kept for the SGF written back; only if, as written, it
			// still reads as no result (the round trip gives the same).
			if _, again := claimedResult(t, r.Rules, counted); again == "" {
				r.ResultText = t
			}
		}
	}
	if v, off, ok := one("ER"); ok {
		reason, side, _ := strings.Cut(strings.TrimSpace(v), ":")
		e := EndReason(strings.ToLower(reason))
		c, err := ParseColor(side)
		if !e.Valid() || err != nil {
			return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("ER[%s] is not an end reason", v)}
		}
		r.End, r.EndBy = e, c
	}
	if r.End == "" && endedByPasses {
		r.End = EndScore
		note(AssumedNoResult)
	}
	if r.End == EndScore && !endedByPasses && r.Result != "" {
		note(AssumedCountNoPasses, r.Result, r.Rules.PassesToEnd)
	}

	if len(tb)+len(tw) > 0 {
		tbs, err := points(tb)
		if err != nil {
			return nil, err
		}
		tws, err := points(tw)
		if err != nil {
			return nil, err
		}
		r.Dead = deadFromTerritory(r, tbs, tws)
	}
	return r, nil
}

// claimedResult reads an RE value: what was read, and the claimed result
// in SGF form, "" when the result is unknown. counted: play ended by
// passes or territory is marked.
func claimedResult(v string, rules Ruleset, counted bool) (resultRead, string) {
	rr := readResult(v, rules.Scoring == ScoringArea)
	if w := rr.res.Winner; rr.known && rr.res.End == EndScore && !rr.res.NoMargin && rr.res.Margin == 0 && w != Empty && w != rules.TieWinner {
		// A win by 0 points is no count under rules that give a tie
		// to nobody: Fox's YuanYu client writes B+0.0 and W+0.0 for
		// games that ended before counting (143 of the AI corpus,
		// none ended by passes). The winner is all it says.
		rr = resultRead{res: Result{Winner: w}, winnerOnly: true,
			note: AssumedREZeroMargin.text(v, w)}
	}
	switch {
	case rr.known && rr.note == "":
		return rr, strings.TrimSpace(v)
	case rr.known:
		return rr, rr.res.String()
	case rr.winnerOnly && counted:
		rr.res.End, rr.res.NoMargin = EndScore, true
		return rr, rr.res.String()
	}
	return rr, ""
}

func sortedKeys(m map[string][]string) []string {
	if len(m) == 0 {
		return nil
	}
	return slices.Sorted(maps.Keys(m))
}

func bracketed(id string, vals []string) string {
	out := make([]string, len(vals))
	for i, v := range vals {
		out[i] = id + "[" + v + "]"
	}
	return strings.Join(out, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// listNumbers writes "3, 17, 40" or "3, 17, 40, 41, 52 and 6 more".
func listNumbers(ns []int) string {
	var b strings.Builder
	for i, n := range ns {
		if i == maxListedNotes {
			fmt.Fprintf(&b, " and %d more", len(ns)-i)
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String()
}

// readMove is a move of the main line with the node it stands in.
type readMove struct {
	m    Move
	node int
	off  int
}

// distinctPlays reports whether the moves are plays on distinct points
// of the board.
func distinctPlays(ms []readMove, size int) bool {
	seen := map[Point]bool{}
	for _, m := range ms {
		if m.m.Pass || seen[m.m.Point] || !m.m.Point.On(size) {
			return false
		}
		seen[m.m.Point] = true
	}
	return true
}

// setupPoints applies AE to the setup before play and drops points given
// twice: what stands on the board when play starts.
func setupPoints(abs, aws, aes []Point, note func(AssumptionFormat, ...any)) ([]Point, []Point) {
	if len(aes) > 0 {
		gone := map[Point]bool{}
		for _, p := range aes {
			gone[p] = true
		}
		n := len(abs) + len(aws)
		abs = slices.DeleteFunc(abs, func(p Point) bool { return gone[p] })
		aws = slices.DeleteFunc(aws, func(p Point) bool { return gone[p] })
		if removed := n - len(abs) - len(aws); removed > 0 {
			note(AssumedAERemoves, removed)
		} else {
			note(AssumedAEEmpty, len(aes))
		}
	}
	seen := map[Point]Color{}
	dups := 0
	keep := func(ps []Point, c Color) []Point {
		return slices.DeleteFunc(ps, func(p Point) bool {
			if _, ok := seen[p]; ok {
				dups++
				return true
			}
			seen[p] = c
			return false
		})
	}
	abs = keep(abs, Black)
	aws = keep(aws, White)
	if dups > 0 {
		note(AssumedSetupTwice, dups)
	}
	return abs, aws
}

// setupAsMove reads setup after moves (AB, AW, AE in the main line after
// play began). Setup that changes nothing is ignored; one stone of the
// colour to move on an empty point is that colour's move (some editors
// write moves so); anything else cannot be played, and the record is read
// up to it (stop).
func setupAsMove(r *Record, t turn, next Color, note func(AssumptionFormat, ...any)) (m Move, ok, stop bool) {
	g, err := Replay(r)
	if err != nil {
		note(AssumedSetupNoReplay, len(r.Moves), t.off)
		return Move{}, false, true
	}
	var add []Stone
	var clear []Point
	for _, pr := range t.setup {
		for i, v := range pr.vals {
			v = strings.TrimSpace(v)
			if v == "" {
				continue
			}
			p, err := ParseSGFPoint(v)
			if err != nil || !p.On(r.Size) || strings.Contains(v, ":") {
				note(AssumedSetupNotPoint, pr.id, v, len(r.Moves), pr.offs[i])
				return Move{}, false, true
			}
			switch pr.id {
			case "AB":
				add = append(add, Stone{Black, p})
			case "AW":
				add = append(add, Stone{White, p})
			default:
				clear = append(clear, p)
			}
		}
	}
	changes := 0
	var change Stone
	for _, p := range clear {
		if g.At(p) != Empty {
			changes = 2 // removing a stone is no move
		}
	}
	for _, s := range add {
		if g.At(s.Point) != s.Color {
			changes++
			change = s
		}
	}
	switch {
	case changes == 0:
		note(AssumedSetupNoChange, len(r.Moves), t.off)
		return Move{}, false, false
	case changes == 1 && change.Color == next && g.At(change.Point) == Empty && g.Legal(Play(next, change.Point)) == nil:
		note(AssumedSetupAsMove, len(r.Moves), t.off, next, next, next)
		return Play(next, change.Point), true, false
	}
	note(AssumedSetupCut, len(r.Moves), t.off, len(r.Moves))
	return Move{}, false, true
}

// komiScale is decided: servers write komi times 100 (KM[750] for 7.5
// points; Fox KM[375] for 3¾ stones, which is 7.5 points). No real komi
// reaches 100 points, so a value of 100 or more is read divided by 100:
// as points when that gives whole or half points, else as stones when
// that gives quarter stones.
const komiScale = 100

// readKomi reads a KM value; note says what was assumed, if anything. A
// value that means no komi at all is replaced by the ruleset's, noted.
func readKomi(v string, rules Ruleset, handicap int) (komi float64, note string) {
	fallback := func(why AssumptionFormat, args ...any) (float64, string) {
		k := DefaultKomi(rules, handicap)
		return k, why.text(append(append([]any{v}, args...), strconv.FormatFloat(k, 'f', -1, 64))...)
	}
	t := strings.TrimSpace(v)
	t = strings.TrimSuffix(strings.TrimSuffix(t, "目"), "点")
	k, err := strconv.ParseFloat(strings.ReplaceAll(t, ",", "."), 64)
	if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
		if t == "" {
			return fallback(AssumedKomiEmpty)
		}
		return fallback(AssumedKomiNaN)
	}
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	if math.Abs(k) >= komiScale {
		if s := k / komiScale; halfPoints(s) {
			return s, AssumedKomiTimes.text(v, f(s), komiScale)
		}
		if s := k / komiScale; halfPoints(2 * s) {
			return 2 * s, AssumedKomiStones.text(v, f(2*s), f(s), komiScale)
		}
		return fallback(AssumedKomiTooLarge, komiScale)
	}
	if halfPoints(k) {
		return k, ""
	}
	if halfPoints(2 * k) {
		return 2 * k, AssumedKomiQuarter.text(v, f(2*k))
	}
	return fallback(AssumedKomiOdd)
}

// dateLayouts are the DT forms read into PlayedAt, tried in order.
var dateLayouts = []string{
	"2006-01-02", "2006-1-2", "2006/01/02", "2006/1/2", "2006.01.02", "2006.1.2", "20060102",
	"2006-01-02 15:04:05", "2006-01-02 15:04", "2006-01-02T15:04:05Z07:00", "2006-01-02T15:04:05",
	"2006/01/02 15:04:05", "2006/01/02 15:04", "2006.01.02 15:04", "2006年1月2日", "2006年01月02日",
}

// parseDate reads the first date of a DT value ("2024-01-02",
// "2024-01-02,03", "2024.01.02 12:30", "2024年1月2日"). A date without a
// time is the day's start in UTC: records do not say the zone.
func parseDate(dt string) (time.Time, bool) {
	s := strings.TrimSpace(dt)
	if i := strings.IndexAny(s, ",;"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	for _, l := range dateLayouts {
		if t, err := time.Parse(l, s); err == nil && t.Year() >= 1 {
			return t.UTC(), true
		}
	}
	// A date followed by other words: "2024-01-02 (Sat)".
	if f := strings.Fields(s); len(f) > 1 {
		for _, l := range dateLayouts[:7] {
			if t, err := time.Parse(l, f[0]); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

// parsePartialDate reads the dates SGF allows without a day, "1846-09"
// and "1846" (historical records): the first day of the month or year.
func parsePartialDate(dt string) (time.Time, bool) {
	s := strings.TrimSpace(dt)
	if i := strings.IndexAny(s, ",;"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	for _, l := range []string{"2006-01", "2006"} {
		if len(s) == len(l) {
			if t, err := time.Parse(l, s); err == nil {
				return t.UTC(), true
			}
		}
	}
	return time.Time{}, false
}

// clipText keeps the first limit characters of v, and calls clipped with
// its length in characters when it had more.
func clipText(v string, limit int, clipped func(runes int)) string {
	n := 0
	for i := range v {
		if n == limit {
			clipped(utf8.RuneCountInString(v))
			return v[:i]
		}
		n++
	}
	return v
}

// korean reports whether a ruleset's name names Korean rules, which the
// reader takes as the Japanese preset (rules.go's table).
func korean(name string) bool {
	l := strings.ToLower(name)
	return strings.Contains(l, "kor") || strings.Contains(l, "韩国") || strings.Contains(l, "韓国") || strings.Contains(l, "한국") || l == "kr"
}

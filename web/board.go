package web

import (
	"encoding/json"
	"fmt"
	"html/template"
	"strings"

	"github.com/weiqi-platform/rank/games"
)

// boardView is a game's final position as drawn, and what the SVG needs.
type boardView struct {
	Size     int
	SVG      template.HTML
	Dead     []games.Point
	Captures [2]int // by Black, by White
	Stopped  int    // the move the replay stopped at when the record has an illegal one (0: none)
}

const (
	boardCell = 24
	boardPad  = 24
)

type frameMove struct {
	C   string   `json:"c"` // "b" or "w"
	X   int      `json:"x"` // -1 for a pass
	Y   int      `json:"y"`
	Cap [][2]int `json:"cap,omitempty"`
}

type frames struct {
	Size  int         `json:"size"`
	Cell  int         `json:"cell"`
	Pad   int         `json:"pad"`
	Setup [][3]any    `json:"setup"`
	Moves []frameMove `json:"moves"`
	Dead  [][2]int    `json:"dead"`
}

func colourLetter(c games.Color) string {
	if c == games.White {
		return "w"
	}
	return "b"
}

// boardOf replays the record move by move (the captures of each move are
// the stones gone after it) and draws the final position with the dead
// stones marked; the frames let the page's script step through it.
func boardOf(r *games.Record, v *games.Verdict, lang string) (boardView, string) {
	bv := boardView{Size: r.Size}
	f := frames{Size: r.Size, Cell: boardCell, Pad: boardPad, Setup: [][3]any{}, Moves: []frameMove{}, Dead: [][2]int{}}
	g, err := games.NewGame(r.Size, r.Rules, r.Handicap, r.Setup)
	if err != nil {
		return bv, "{}"
	}
	n := r.Size
	snapshot := func() []games.Color {
		out := make([]games.Color, n*n)
		for y := range n {
			for x := range n {
				out[y*n+x] = g.At(games.Point{X: x, Y: y})
			}
		}
		return out
	}
	pos := snapshot()
	for i, c := range pos {
		if c != games.Empty {
			f.Setup = append(f.Setup, [3]any{i % n, i / n, colourLetter(c)})
		}
	}
	for i, m := range r.Moves {
		if err := g.Play(m); err != nil {
			bv.Stopped = i + 1
			break
		}
		fm := frameMove{C: colourLetter(m.Color), X: -1, Y: -1}
		if !m.Pass {
			fm.X, fm.Y = m.Point.X, m.Point.Y
		}
		next := snapshot()
		for j := range next {
			if pos[j] != games.Empty && next[j] == games.Empty {
				fm.Cap = append(fm.Cap, [2]int{j % n, j / n})
			}
		}
		if m.Color == games.White {
			bv.Captures[1] += len(fm.Cap)
		} else {
			bv.Captures[0] += len(fm.Cap)
		}
		pos = next
		f.Moves = append(f.Moves, fm)
	}
	bv.Dead = r.Dead
	if len(bv.Dead) == 0 && v != nil {
		bv.Dead = v.ProposedDead
	}
	for _, p := range bv.Dead {
		f.Dead = append(f.Dead, [2]int{p.X, p.Y})
	}
	var last *frameMove
	if len(f.Moves) > 0 && f.Moves[len(f.Moves)-1].X >= 0 {
		last = &f.Moves[len(f.Moves)-1]
	}
	bv.SVG = drawBoard(n, pos, bv.Dead, last, tr(lang, "board.title"))
	js, _ := json.Marshal(f)
	return bv, string(js)
}

// drawBoard writes the board as SVG: lines, star points, coordinates,
// the stones, the last move and the dead stones (red squares).
func drawBoard(n int, pos []games.Color, dead []games.Point, last *frameMove, title string) template.HTML {
	w := 2*boardPad + (n-1)*boardCell
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="board" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="board-title">`, w, w, w, w)
	fmt.Fprintf(&b, `<title id="board-title">%s</title>`, template.HTMLEscapeString(title))
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#e3b873"/>`, w, w)
	end := boardPad + (n-1)*boardCell
	for i := range n {
		c := boardPad + i*boardCell
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, boardPad, c, end, c)
		fmt.Fprintf(&b, `<line x1="%d" y1="%d" x2="%d" y2="%d" stroke="#333"/>`, c, boardPad, c, end)
		col := "ABCDEFGHJKLMNOPQRSTUVWXYZ"[i : i+1]
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10" text-anchor="middle" fill="#333">%s</text>`, c, boardPad-10, col)
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="10" text-anchor="middle" fill="#333">%d</text>`, boardPad-14, c+4, n-i)
	}
	for _, p := range starPoints(n) {
		fmt.Fprintf(&b, `<circle cx="%d" cy="%d" r="3" fill="#333"/>`, boardPad+p[0]*boardCell, boardPad+p[1]*boardCell)
	}
	for i, c := range pos {
		if c == games.Empty {
			continue
		}
		fill := "#111"
		if c == games.White {
			fill = "#fafafa"
		}
		fmt.Fprintf(&b, `<circle class="stone" cx="%d" cy="%d" r="%.1f" fill="%s" stroke="#111"/>`, boardPad+(i%n)*boardCell, boardPad+(i/n)*boardCell, boardCell*0.46, fill)
	}
	if last != nil {
		stroke := "#fafafa"
		if last.C == "w" {
			stroke = "#111"
		}
		fmt.Fprintf(&b, `<circle class="last" cx="%d" cy="%d" r="%.1f" fill="none" stroke="%s" stroke-width="2"/>`, boardPad+last.X*boardCell, boardPad+last.Y*boardCell, boardCell*0.2, stroke)
	}
	for _, p := range dead {
		fmt.Fprintf(&b, `<rect class="dead" x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="#c0392b"/>`,
			float64(boardPad+p.X*boardCell)-boardCell*0.2, float64(boardPad+p.Y*boardCell)-boardCell*0.2, boardCell*0.4, boardCell*0.4)
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // built here from numbers only
}

func starPoints(n int) [][2]int {
	var lines []int
	switch {
	case n >= 13 && n%2 == 1:
		lines = []int{3, n / 2, n - 4}
	case n >= 9 && n%2 == 1:
		lines = []int{2, n / 2, n - 3}
	default:
		return nil
	}
	var out [][2]int
	for _, x := range lines {
		for _, y := range lines {
			out = append(out, [2]int{x, y})
		}
	}
	return out
}

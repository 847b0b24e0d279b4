package games

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// SGF FF[4] in and out. ParseSGF reads a collection and keeps, for each
// game, the main line (the first variation at every branch); the other
// variations are checked for syntax and dropped. Only what a Record holds
// is read; other properties are ignored. Two properties outside the
// standard carry what SGF cannot say: ER (the end reason when RE does not
// imply it, e.g. ER[escape:W]) and, as in common practice, TB/TW at the
// end mark dead stones (a stone standing on the other side's territory).

// sgfProp is one property of a node with the offsets of its values.
type sgfProp struct {
	id   string
	vals []string // unescaped
	offs []int    // byte offset of each value's '['
}

type sgfNode struct {
	props []sgfProp
	off   int
}

type sgfParser struct {
	data []byte
	pos  int
	// Arenas: the props of a node and the values of a prop are slices of
	// these, so reading a game allocates per game rather than per node.
	props []sgfProp
	vals  []string
	offs  []int
}

// pairs holds every two-letter lower-case string: point values need no
// allocation.
var pairs = func() (t [26 * 26]string) {
	for i := range t {
		t[i] = string([]byte{byte('a' + i/26), byte('a' + i%26)})
	}
	return t
}()

// capitals holds the one- and two-letter upper-case strings: property
// names need no allocation.
var capitals = func() (t [27 * 26]string) {
	for i := 0; i < 26; i++ {
		t[26*26+i] = string(rune('A' + i))
		for j := 0; j < 26; j++ {
			t[i*26+j] = string([]byte{byte('A' + i), byte('A' + j)})
		}
	}
	return t
}()

// str returns b as a string, shared for point values and property names.
func (p *sgfParser) str(b []byte) string {
	switch {
	case len(b) == 0:
		return ""
	case len(b) == 2 && 'a' <= b[0] && b[0] <= 'z' && 'a' <= b[1] && b[1] <= 'z':
		return pairs[int(b[0]-'a')*26+int(b[1]-'a')]
	case len(b) == 2 && 'A' <= b[0] && b[0] <= 'Z' && 'A' <= b[1] && b[1] <= 'Z':
		return capitals[int(b[0]-'A')*26+int(b[1]-'A')]
	case len(b) == 1 && 'A' <= b[0] && b[0] <= 'Z':
		return capitals[26*26+int(b[0]-'A')]
	}
	return string(b)
}

func (p *sgfParser) errf(off int, format string, args ...any) error {
	return &SGFError{Offset: off, Msg: fmt.Sprintf(format, args...)}
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func (p *sgfParser) skipSpace() {
	for p.pos < len(p.data) && isSpace(p.data[p.pos]) {
		p.pos++
	}
}

// games parses the collection and hands the main line of each game tree
// to done as soon as the tree closes (the slice is reused afterwards).
// Anything before the first '(' is ignored (mail headers, a BOM).
func (p *sgfParser) games(done func([]sgfNode) error) error {
	start := bytes.IndexByte(p.data, '(')
	if start < 0 {
		return p.errf(len(p.data), "no game: an SGF collection starts with '('")
	}
	p.pos = start
	values := bytes.Count(p.data, []byte{'['})
	p.props = make([]sgfProp, 0, values)
	p.vals = make([]string, 0, values)
	p.offs = make([]int, 0, values)
	games := 0
	cur := make([]sgfNode, 0, bytes.Count(p.data, []byte{';'}))
	type frame struct {
		main, hasChild bool
		nodes          int
		off            int
	}
	var stack []frame
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			if len(stack) > 0 {
				return p.errf(p.pos, "unexpected end of input: %d game tree(s) not closed", len(stack))
			}
			if games == 0 {
				return p.errf(p.pos, "no game")
			}
			return nil
		}
		c := p.data[p.pos]
		switch {
		case c == '(':
			main := true
			if n := len(stack); n > 0 {
				top := &stack[n-1]
				if top.nodes == 0 {
					return p.errf(p.pos, "a game tree must start with a node (';') before a variation")
				}
				main = top.main && !top.hasChild
				top.hasChild = true
			} else {
				cur = cur[:0]
			}
			stack = append(stack, frame{main: main, off: p.pos})
			p.pos++
		case c == ')':
			n := len(stack)
			if n == 0 {
				return p.errf(p.pos, "')' without a matching '('")
			}
			if stack[n-1].nodes == 0 {
				return p.errf(p.pos, "empty game tree")
			}
			stack = stack[:n-1]
			p.pos++
			if len(stack) == 0 {
				games++
				if err := done(cur); err != nil {
					return err
				}
				p.skipSpace()
				if p.pos < len(p.data) && p.data[p.pos] != '(' {
					return p.errf(p.pos, "unexpected %q after a game tree", p.data[p.pos])
				}
			}
		case c == ';':
			n := len(stack)
			if n == 0 {
				return p.errf(p.pos, "node outside a game tree")
			}
			top := &stack[n-1]
			if top.hasChild {
				return p.errf(p.pos, "a node cannot follow a variation in the same game tree")
			}
			top.nodes++
			node := sgfNode{off: p.pos}
			p.pos++
			if err := p.properties(&node); err != nil {
				return err
			}
			if top.main {
				cur = append(cur, node)
			}
		default:
			if len(stack) == 0 {
				return p.errf(p.pos, "unexpected %q between game trees", c)
			}
			return p.errf(p.pos, "unexpected %q: expected ';', '(' or ')'", c)
		}
	}
}

// properties reads the properties of one node.
func (p *sgfParser) properties(n *sgfNode) error {
	first := len(p.props)
	defer func() { n.props = p.props[first:len(p.props):len(p.props)] }()
	var id [8]byte
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil
		}
		c := p.data[p.pos]
		if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z') {
			return nil
		}
		off := p.pos
		nid := 0
		for p.pos < len(p.data) {
			c := p.data[p.pos]
			if 'A' <= c && c <= 'Z' {
				if nid == len(id) {
					return p.errf(off, "property name longer than %d letters", len(id))
				}
				id[nid] = c
				nid++
			} else if !('a' <= c && c <= 'z') { // FF[3] lower-case letters are ignored
				break
			}
			p.pos++
		}
		if nid == 0 {
			return p.errf(off, "property name without capital letters")
		}
		prop := sgfProp{id: p.str(id[:nid])}
		vfirst := len(p.vals)
		for {
			p.skipSpace()
			if p.pos >= len(p.data) || p.data[p.pos] != '[' {
				break
			}
			voff := p.pos
			v, err := p.value()
			if err != nil {
				return err
			}
			p.vals = append(p.vals, v)
			p.offs = append(p.offs, voff)
		}
		prop.vals = p.vals[vfirst:len(p.vals):len(p.vals)]
		prop.offs = p.offs[vfirst:len(p.offs):len(p.offs)]
		if len(prop.vals) == 0 {
			return p.errf(p.pos, "property %s has no value", prop.id)
		}
		for _, q := range p.props[first:] {
			if q.id == prop.id {
				return p.errf(off, "property %s twice in one node", prop.id)
			}
		}
		p.props = append(p.props, prop)
	}
}

// value reads "[...]" and undoes the escapes: "\" takes the next byte
// literally, "\" before a line break removes both (a soft line break).
func (p *sgfParser) value() (string, error) {
	open := p.pos
	p.pos++
	start := p.pos
	end := bytes.IndexByte(p.data[start:], ']')
	if end >= 0 && bytes.IndexByte(p.data[start:start+end], '\\') < 0 {
		p.pos = start + end + 1
		return p.str(p.data[start : start+end]), nil
	}
	var b []byte
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		switch c {
		case ']':
			p.pos++
			return string(b), nil
		case '\\':
			p.pos++
			if p.pos >= len(p.data) {
				return "", p.errf(open, "value not closed by ']'")
			}
			e := p.data[p.pos]
			p.pos++
			if e == '\n' || e == '\r' {
				if p.pos < len(p.data) && (p.data[p.pos] == '\n' || p.data[p.pos] == '\r') && p.data[p.pos] != e {
					p.pos++
				}
				continue
			}
			b = append(b, e)
		default:
			b = append(b, c)
			p.pos++
		}
	}
	return "", p.errf(open, "value not closed by ']'")
}

// ParseSGF reads every game of an SGF collection.
func ParseSGF(data []byte) ([]*Record, error) {
	p := &sgfParser{data: data}
	var recs []*Record
	err := p.games(func(nodes []sgfNode) error {
		r, err := recordFromNodes(nodes)
		if err == nil {
			recs = append(recs, r)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return recs, nil
}

// ParseRecord reads an SGF file holding exactly one game.
func ParseRecord(data []byte) (*Record, error) {
	recs, err := ParseSGF(data)
	if err != nil {
		return nil, err
	}
	if len(recs) != 1 {
		return nil, &SGFError{Offset: 0, Msg: fmt.Sprintf("%d games in the collection, want one", len(recs))}
	}
	return recs[0], nil
}

// komiScale is decided: one large server writes komi times 100 (KM[750]
// for 7.5). No real komi reaches 100 points, so a value of 100 or more
// that becomes whole or half points when divided by 100 is read that way.
const komiScale = 100

// normalizeKomi reads a KM value; note says what was assumed, if anything.
func normalizeKomi(v string) (komi float64, note string, err error) {
	k, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || math.IsNaN(k) || math.IsInf(k, 0) {
		return 0, "", fmt.Errorf("komi %q is not a number", v)
	}
	if math.Abs(k) >= komiScale {
		if s := k / komiScale; halfPoints(s) {
			return s, fmt.Sprintf("KM[%s] read as komi %s: the value was written times %d", v, strconv.FormatFloat(s, 'f', -1, 64), komiScale), nil
		}
		return 0, "", fmt.Errorf("komi %q is too large and not komi times %d", v, komiScale)
	}
	if !halfPoints(k) {
		return 0, "", fmt.Errorf("komi %q is not a whole or half number of points (stones? give points: 3¾ stones = 7.5)", v)
	}
	return k, "", nil
}

// sgfSimpleText turns an SGF SimpleText into one line.
func sgfSimpleText(s string) string {
	s = strings.ReplaceAll(s, "\r\n", " ")
	return strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' || r == '\v' {
			return ' '
		}
		return r
	}, s)
}

// gameInfo reports the properties read once per game, wherever they stand.
func gameInfo(id string) bool {
	switch id {
	case "SZ", "KM", "HA", "RU", "RE", "PB", "PW", "BR", "WR", "DT", "GM", "FF", "CA", "ER":
		return true
	}
	return false
}

func recordFromNodes(nodes []sgfNode) (*Record, error) {
	info := map[string]sgfProp{}
	var setupB, setupW []sgfProp
	var tb, tw []sgfProp
	type mv struct {
		c   Color
		v   string
		off int
	}
	moves := make([]mv, 0, len(nodes))
	for _, n := range nodes {
		for _, pr := range n.props {
			switch {
			case gameInfo(pr.id):
				if _, dup := info[pr.id]; dup {
					return nil, &SGFError{Offset: pr.offs[0], Msg: pr.id + " given twice in the game"}
				}
				info[pr.id] = pr
			case pr.id == "AB" || pr.id == "AW" || pr.id == "AE":
				if len(moves) > 0 {
					return nil, &SGFError{Offset: pr.offs[0], Msg: fmt.Sprintf("setup property %s after move %d: only setup before play is supported", pr.id, len(moves))}
				}
				switch pr.id {
				case "AB":
					setupB = append(setupB, pr)
				case "AW":
					setupW = append(setupW, pr)
				default:
					return nil, &SGFError{Offset: pr.offs[0], Msg: "AE (removing setup stones) is not supported"}
				}
			case pr.id == "TB":
				tb = append(tb, pr)
			case pr.id == "TW":
				tw = append(tw, pr)
			}
		}
		inNode := 0
		for _, pr := range n.props {
			if pr.id == "B" || pr.id == "W" {
				if len(pr.vals) != 1 {
					return nil, &SGFError{Offset: pr.offs[1], Msg: "a move has one value"}
				}
				if inNode++; inNode > 1 {
					return nil, &SGFError{Offset: pr.offs[0], Msg: "a node holds one move, not B and W"}
				}
				c := Black
				if pr.id == "W" {
					c = White
				}
				moves = append(moves, mv{c, pr.vals[0], pr.offs[0]})
			}
		}
	}

	r := &Record{Size: 19}
	note := func(format string, args ...any) { r.Assumptions = append(r.Assumptions, fmt.Sprintf(format, args...)) }
	one := func(id string) (string, int, bool) {
		pr, ok := info[id]
		if !ok {
			return "", 0, false
		}
		return pr.vals[0], pr.offs[0], true
	}
	if v, off, ok := one("GM"); ok && strings.TrimSpace(v) != "1" {
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
	if v, _, ok := one("CA"); ok {
		cs := strings.ToUpper(strings.TrimSpace(v))
		if cs != "UTF-8" && cs != "UTF8" && cs != "US-ASCII" && cs != "ASCII" && cs != "ISO-8859-1" && cs != "LATIN1" {
			note("CA[%s]: texts read as UTF-8; bytes that are not UTF-8 replaced", v)
		}
	}
	latin1 := false
	if v, _, ok := one("CA"); ok {
		cs := strings.ToUpper(strings.TrimSpace(v))
		latin1 = cs == "ISO-8859-1" || cs == "LATIN1"
	}
	text := func(id string) string {
		v, _, ok := one(id)
		if !ok {
			return ""
		}
		if latin1 {
			rs := make([]rune, len(v))
			for i := 0; i < len(v); i++ {
				rs[i] = rune(v[i])
			}
			v = string(rs)
		}
		return strings.TrimSpace(strings.ToValidUTF8(sgfSimpleText(v), "\uFFFD"))
	}
	r.Black = Player{Name: text("PB"), Rank: text("BR")}
	r.White = Player{Name: text("PW"), Rank: text("WR")}
	r.Date = text("DT")

	r.Rules = Chinese()
	if v, off, ok := one("RU"); ok {
		if p, ok := Preset(v); ok {
			r.Rules = p
		} else if rs, err := ParseRuleset(v); err == nil {
			r.Rules = rs
		} else if strings.Contains(v, "=") {
			return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("RU[%s]: %v", v, err)}
		} else {
			note("RU[%s] is none of chinese, japanese, ing, qq: Chinese rules assumed", v)
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
	for _, pt := range abs {
		r.Setup = append(r.Setup, Stone{Black, pt})
	}
	for _, pt := range aws {
		r.Setup = append(r.Setup, Stone{White, pt})
	}

	r.Moves = make([]Move, 0, len(moves))
	for _, m := range moves {
		v := strings.TrimSpace(m.v)
		if v == "" || (v == "tt" && r.Size <= 19) {
			r.Moves = append(r.Moves, PassMove(m.c))
			continue
		}
		pt, err := point(v, m.off)
		if err != nil {
			return nil, err
		}
		r.Moves = append(r.Moves, Play(m.c, pt)) // off-board points are illegal moves, found by replay
	}

	haGiven := false
	if v, off, ok := one("HA"); ok {
		n, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || n < 0 || n > MaxHandicap {
			return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("HA[%s]: handicap must be 0..%d", v, MaxHandicap)}
		}
		r.Handicap, haGiven = n, true
		switch {
		case n >= MinHandicap && len(abs) == 0:
			pts, ok := HandicapPoints(r.Size, n)
			if !ok {
				return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("HA[%d] without AB stones, and %d×%d has no fixed placement", n, r.Size, r.Size)}
			}
			stones := make([]Stone, 0, len(pts)+len(r.Setup))
			for _, pt := range pts {
				stones = append(stones, Stone{Black, pt})
			}
			r.Setup = append(stones, r.Setup...)
			note("HA[%d] without AB: the stones assumed on the fixed star points", n)
		case n >= MinHandicap && len(abs) != n:
			return nil, &SGFError{Offset: off, Msg: fmt.Sprintf("HA[%d] but %d AB stones", n, len(abs))}
		}
	}
	if !haGiven && len(abs) >= MinHandicap && len(abs) <= MaxHandicap && len(aws) == 0 && len(r.Moves) > 0 && r.Moves[0].Color == White {
		r.Handicap = len(abs)
		note("no HA, but %d AB stones and White moves first: a %d-stone handicap assumed", len(abs), len(abs))
	}

	if v, off, ok := one("KM"); ok {
		k, msg, err := normalizeKomi(v)
		if err != nil {
			return nil, &SGFError{Offset: off, Msg: err.Error()}
		}
		if msg != "" {
			note("%s", msg)
		}
		r.Komi = k
	} else {
		r.Komi = DefaultKomi(r.Rules, r.Handicap)
		note("no KM: komi %s assumed", strconv.FormatFloat(r.Komi, 'f', -1, 64))
	}

	endedByPasses := len(r.Moves) >= r.Rules.PassesToEnd
	for i := len(r.Moves) - r.Rules.PassesToEnd; endedByPasses && i < len(r.Moves); i++ {
		endedByPasses = r.Moves[i].Pass
	}
	if v, off, ok := one("RE"); ok {
		res, known, err := ParseResult(v)
		if err != nil {
			return nil, &SGFError{Offset: off, Msg: err.Error()}
		}
		if known {
			r.Result = strings.TrimSpace(v)
			r.End, r.EndBy = endFromResult(res, endedByPasses || len(tb)+len(tw) > 0)
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
		note("no result given: play ended by passes, so a count assumed")
	}
	if r.End == EndScore && !endedByPasses && r.Result != "" {
		note("RE[%s] is a count but the moves do not end with %d passes: play assumed ended by agreement", r.Result, r.Rules.PassesToEnd)
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

// endFromResult is how a result implies the end of the game. A draw
// ("0") is a count when play ended by passes (or territory is marked),
// else a draw without counting.
func endFromResult(res Result, counted bool) (EndReason, Color) {
	switch res.End {
	case EndResign, EndTime, EndForfeit:
		return res.End, res.Winner.Opponent()
	case EndDraw:
		if counted {
			return EndScore, Empty
		}
		return EndDraw, Empty
	}
	return res.End, Empty
}

// deadFromTerritory: stones standing on the other side's marked territory
// at the end are dead. A record that does not replay has none.
func deadFromTerritory(r *Record, tb, tw []Point) []Point {
	g, err := Replay(r)
	if err != nil {
		return nil
	}
	var dead []Point
	var mark [MaxSize][MaxSize]bool
	for _, p := range tb {
		if g.board.At(p) == White && !mark[p.Y][p.X] {
			mark[p.Y][p.X] = true
		}
	}
	for _, p := range tw {
		if g.board.At(p) == Black && !mark[p.Y][p.X] {
			mark[p.Y][p.X] = true
		}
	}
	for y := 0; y < r.Size; y++ {
		for x := 0; x < r.Size; x++ {
			if mark[y][x] {
				dead = append(dead, Point{x, y})
			}
		}
	}
	return dead
}

// sgfEscape escapes a text value.
func sgfEscape(s string) string {
	if !strings.ContainsAny(s, `\]`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' || s[i] == ']' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// rulesetSGF writes a ruleset for RU: a preset as SGF files name it
// ("Chinese"), anything else in ParseRuleset's form.
func rulesetSGF(r Ruleset) string {
	s := r.String()
	switch s {
	case "chinese", "japanese":
		return strings.ToUpper(s[:1]) + s[1:]
	case "ing":
		return "Ing"
	case "qq":
		return "QQ"
	}
	return s
}

// SGF writes the record as an SGF FF[4] game (one game tree). It carries
// everything ParseSGF reads back; penalties and assumptions are not
// written (SGF has no place for them).
func (r *Record) SGF() []byte {
	var b bytes.Buffer
	prop := func(id string, vals ...string) {
		b.WriteString(id)
		for _, v := range vals {
			b.WriteByte('[')
			b.WriteString(sgfEscape(v))
			b.WriteByte(']')
		}
	}
	b.WriteString("(;")
	prop("GM", "1")
	prop("FF", "4")
	prop("CA", "UTF-8")
	prop("SZ", strconv.Itoa(r.Size))
	prop("RU", rulesetSGF(r.Rules))
	prop("KM", strconv.FormatFloat(r.Komi, 'f', -1, 64))
	if r.Handicap > 0 || len(r.Setup) > 0 { // HA[0] too: without HA, AB stones may be read as a handicap
		prop("HA", strconv.Itoa(r.Handicap))
	}
	for _, f := range []struct{ id, v string }{{"PB", r.Black.Name}, {"BR", r.Black.Rank}, {"PW", r.White.Name}, {"WR", r.White.Rank}, {"DT", r.Date}} {
		if f.v != "" {
			prop(f.id, utf8Safe(sgfSimpleText(f.v))) // SimpleText: one line
		}
	}
	if r.Result != "" {
		prop("RE", r.Result)
	}
	// Dead stones go out as TB/TW: the point of a dead white stone is
	// Black's territory and the other way round.
	var tb, tw []string
	if len(r.Dead) > 0 {
		if g, err := Replay(r); err == nil {
			for _, p := range r.Dead {
				switch g.board.At(p) {
				case White:
					tb = append(tb, p.SGF())
				case Black:
					tw = append(tw, p.SGF())
				}
			}
		}
	}
	if r.End != "" {
		counted := len(tb)+len(tw) > 0
		if n := r.Rules.PassesToEnd; len(r.Moves) >= n && n > 0 {
			passes := true
			for _, m := range r.Moves[len(r.Moves)-n:] {
				passes = passes && m.Pass
			}
			counted = counted || passes
		}
		res, known, err := ParseResult(r.Result)
		e, by := EndReason(""), Empty
		if known && err == nil {
			e, by = endFromResult(res, counted)
		}
		if e != r.End || by != r.EndBy {
			v := string(r.End)
			if r.EndBy != Empty {
				v += ":" + r.EndBy.String()
			}
			prop("ER", v)
		}
	}
	var setupB, setupW []string
	for _, s := range r.Setup {
		if s.Color == Black {
			setupB = append(setupB, s.Point.SGF())
		} else {
			setupW = append(setupW, s.Point.SGF())
		}
	}
	if len(setupB) > 0 {
		prop("AB", setupB...)
	}
	if len(setupW) > 0 {
		prop("AW", setupW...)
	}
	for i, m := range r.Moves {
		if i%10 == 0 {
			b.WriteByte('\n')
		}
		b.WriteByte(';')
		v := ""
		if !m.Pass {
			v = m.Point.SGF()
		}
		prop(m.Color.String(), v)
	}
	if len(tb)+len(tw) > 0 {
		if len(r.Moves) > 0 {
			b.WriteString("\n;")
		}
		if len(tb) > 0 {
			prop("TB", tb...)
		}
		if len(tw) > 0 {
			prop("TW", tw...)
		}
	}
	b.WriteString(")\n")
	return b.Bytes()
}

func utf8Safe(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}

// WriteSGF writes records as one SGF collection.
func WriteSGF(w io.Writer, recs ...*Record) error {
	for _, r := range recs {
		if _, err := w.Write(r.SGF()); err != nil {
			return err
		}
	}
	return nil
}

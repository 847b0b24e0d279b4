package games

import (
	"bytes"
	"fmt"
	"io"
	"slices"
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
	// notes says what the parser assumed in the game being read.
	notes []string
	name  []byte // scratch for property names
}

func (p *sgfParser) note(f AssumptionFormat, args ...any) {
	p.notes = append(p.notes, f.text(args...))
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

// games parses the collection and hands the main line of each game tree,
// with what the parser assumed, to done as soon as the tree closes (the
// slices are reused afterwards). Anything before the first '(' is ignored
// (mail headers), and so is anything between or after game trees that is
// not one (a stray ')', a signature), with a note. A root node written
// without its ';' is read as meant, with a note; a game tree left open at
// the end of the input is an error (the file may be cut short).
func (p *sgfParser) games(done func([]sgfNode, []string) error) error {
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
	var pending []string // notes about the text between trees, for the next game
	finish := func() error {
		games++
		err := done(cur, p.notes)
		p.notes = p.notes[:0]
		return err
	}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			if n := len(stack); n > 0 {
				// Not read as meant: a file cut short (a truncated
				// upload) would be judged as another, shorter game.
				return p.errf(p.pos, "unexpected end of input: %d game tree(s) not closed", n)
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
				p.notes = append(p.notes[:0], pending...)
				pending = pending[:0]
			}
			stack = append(stack, frame{main: main, off: p.pos})
			p.pos++
			p.skipSpace()
			if len(stack) == 1 && p.pos < len(p.data) && isLetter(p.data[p.pos]) {
				// "(GM[1]…": the root node's ';' is missing.
				p.note(AssumedRootWithoutSemicolon)
				if err := p.node(&stack[0].nodes, true, &cur); err != nil {
					return err
				}
			}
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
				if err := finish(); err != nil {
					return err
				}
				p.skipSpace()
				if p.pos < len(p.data) && p.data[p.pos] != '(' {
					next := bytes.IndexByte(p.data[p.pos:], '(')
					after := AssumedTextAfterLast
					if rest := bytes.TrimSpace(p.data[p.pos:]); len(rest) > 0 && bytes.Count(rest, []byte{')'}) == len(rest) {
						after = AssumedParenAfterLast
					}
					if next < 0 {
						p.note(after, p.pos)
						p.pos = len(p.data)
						// The note belongs to the game just read.
						if err := done(nil, p.notes); err != nil {
							return err
						}
						p.notes = p.notes[:0]
					} else {
						// Text before another tree is never only ')'.
						pending = append(pending, AssumedTextBetween.text(p.pos))
						p.pos += next
					}
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
			p.pos++
			if err := p.node(&top.nodes, top.main, &cur); err != nil {
				return err
			}
		default:
			return p.errf(p.pos, "unexpected %q: expected ';', '(' or ')'", c)
		}
	}
}

func isLetter(c byte) bool { return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' }

// node reads the properties of a node whose ';' is behind.
func (p *sgfParser) node(count *int, main bool, cur *[]sgfNode) error {
	*count++
	node := sgfNode{off: p.pos}
	if err := p.properties(&node); err != nil {
		return err
	}
	if main {
		*cur = append(*cur, node)
	}
	return nil
}

// properties reads the properties of one node. Names of any length are
// read (MULTIGOGM); a name given twice in the node is kept twice, for the
// record reader to merge or drop; a name without a value is dropped.
func (p *sgfParser) properties(n *sgfNode) error {
	first := len(p.props)
	defer func() { n.props = p.props[first:len(p.props):len(p.props)] }()
	for {
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil
		}
		c := p.data[p.pos]
		if !isLetter(c) {
			return nil
		}
		off := p.pos
		p.name = p.name[:0]
		for p.pos < len(p.data) {
			c := p.data[p.pos]
			if 'A' <= c && c <= 'Z' {
				p.name = append(p.name, c)
			} else if !('a' <= c && c <= 'z') { // FF[3] lower-case letters are ignored
				break
			}
			p.pos++
		}
		if len(p.name) == 0 {
			return p.errf(off, "property name without capital letters")
		}
		prop := sgfProp{id: p.str(p.name)}
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
			p.note(AssumedNoValue, prop.id, off)
			continue
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

// ParseSGF reads every game of an SGF collection (a file holding several
// games gives several records). The text is made UTF-8 first as CA says
// (UTF-8, UTF-16, Latin-1; other charsets need ReadRecords with a
// Decoder).
func ParseSGF(data []byte) ([]*Record, error) {
	return parseSGF(data, ReadOptions{})
}

func parseSGF(data []byte, opt ReadOptions) ([]*Record, error) {
	text, notes := toUTF8(data, opt.Decode)
	p := &sgfParser{data: text}
	var recs []*Record
	err := p.games(func(nodes []sgfNode, pnotes []string) error {
		if nodes == nil { // notes about the text after the last game
			if n := len(recs); n > 0 {
				recs[n-1].Assumptions = append(recs[n-1].Assumptions, pnotes...)
			}
			return nil
		}
		r, err := recordFromNodes(nodes, append(append([]string(nil), notes...), pnotes...))
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

// endFromResult is how a result implies the end of the game. A draw
// ("0") is a count when play ended by passes (or territory is marked),
// else a draw without counting.
func endFromResult(res Result, counted bool) (EndReason, Color) {
	switch res.End {
	case EndResign, EndTime, EndForfeit, EndEscape:
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
	case "aga", "nz":
		return strings.ToUpper(s)
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
	if r.First != Empty {
		prop("PL", r.First.String())
	}
	for _, f := range []struct{ id, v string }{
		{"PB", r.Black.Name}, {"BR", r.Black.Rank}, {"PW", r.White.Name}, {"WR", r.White.Rank}, {"DT", r.Date},
		{"EV", r.Event}, {"RO", r.Round}, {"PC", r.Place}, {"GN", r.GameName}, {"TM", r.TimeLimit}, {"OT", r.Overtime}, {"AP", r.Source},
	} {
		if f.v != "" {
			prop(f.id, utf8Safe(sgfSimpleText(f.v))) // SimpleText: one line
		}
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
	counted := len(tb)+len(tw) > 0
	if n := r.Rules.PassesToEnd; len(r.Moves) >= n && n > 0 {
		passes := true
		for _, m := range r.Moves[len(r.Moves)-n:] {
			passes = passes && m.Pass
		}
		counted = counted || passes
	}
	if r.Result != "" {
		prop("RE", r.Result)
	} else if t := utf8Safe(sgfSimpleText(r.ResultText)); t != "" {
		// The file's own words for an unknown result, unless they would
		// read back as a result the record does not claim.
		if _, res := claimedResult(t, r.Rules, counted); res == "" {
			prop("RE", t)
		}
	}
	if r.End != "" {
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
	// Comments and clocks go in the node of the move they follow.
	comments := slices.SortedStableFunc(slices.Values(r.Comments), func(a, b Comment) int { return a.Move - b.Move })
	clock := slices.SortedStableFunc(slices.Values(r.Clock), func(a, b Clock) int { return a.Move - b.Move })
	ci, ki := 0, 0
	annotate := func(move int) {
		// One C per node: a second C in a node is dropped when read.
		var texts []string
		for ; ci < len(comments) && comments[ci].Move <= move; ci++ {
			if comments[ci].Move == move {
				texts = append(texts, utf8Safe(comments[ci].Text))
			}
		}
		if len(texts) > 0 {
			prop("C", strings.Join(texts, "\n"))
		}
		for ; ki < len(clock) && clock[ki].Move <= move; ki++ {
			if c := clock[ki]; c.Move == move {
				id := "BL"
				if c.Color == White {
					id = "WL"
				}
				prop(id, strconv.FormatFloat(c.Seconds, 'f', -1, 64))
				if c.Periods != 0 {
					prop("O"+id[:1], strconv.Itoa(c.Periods))
				}
			}
		}
	}
	annotate(0)
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
		annotate(i + 1)
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

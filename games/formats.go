package games

import (
	"bytes"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Record files other than SGF: Tygem's .gib and Pandanet's (IGS) .ugf and
// .ugi. ReadRecords tells them apart by their content and converts them to
// SGF text, which the SGF reader then reads as any other file: what the
// conversion assumed joins what the reader assumed.

// Format is the kind of a record file.
type Format string

// The formats ReadRecords reads.
const (
	FormatSGF Format = "sgf"
	FormatGIB Format = "gib" // Tygem
	FormatUGF Format = "ugf" // Pandanet (IGS) .ugf and .ugi
)

// DetectFormat tells the format of a record file from its content. A
// file whose text starts with '(' is SGF (the common case, told without
// looking further).
func DetectFormat(data []byte) Format {
	head := bytes.TrimLeft(bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF}), " \t\r\n")
	if len(head) > 0 && head[0] == '(' {
		return FormatSGF
	}
	if len(head) > 4096 {
		head = head[:4096]
	}
	switch {
	case bytes.Contains(head, []byte(`\HS`)) || bytes.Contains(head, []byte(`\[GAMEINFOMAIN=`)) || bytes.Contains(head, []byte(`\[GAMETAG=`)):
		return FormatGIB
	case containsFold(head, "[HEADER]") && containsFold(data, "[DATA]"):
		return FormatUGF
	}
	return FormatSGF
}

// containsFold reports whether b contains the upper-case ASCII s in any
// case, without copying b.
func containsFold(b []byte, s string) bool {
	for i := 0; i+len(s) <= len(b); i++ {
		if bytes.EqualFold(b[i:i+len(s)], []byte(s)) {
			return true
		}
	}
	return false
}

// ReadRecords reads every game of a record file: an SGF collection (each
// game tree a record), a Tygem .gib or a Pandanet .ugf/.ugi file. The
// file is made UTF-8 first: opt.Decode decodes the charsets the standard
// library does not (pass charset.Decode). What was assumed is in each
// record's Assumptions. Errors are *SGFError (for a converted file, the
// offsets are in the SGF it was converted to).
func ReadRecords(data []byte, opt ReadOptions) ([]*Record, error) {
	switch DetectFormat(data) {
	case FormatGIB:
		text, notes := toUTF8(data, gibDecoder(opt.Decode))
		sgf, cnotes, err := gibToSGF(string(text))
		if err != nil {
			return nil, err
		}
		return convertedRecords(sgf, append(notes, cnotes...))
	case FormatUGF:
		text, notes := toUTF8(data, ugfDecoder(opt.Decode))
		sgf, cnotes, err := ugfToSGF(string(text))
		if err != nil {
			return nil, err
		}
		return convertedRecords(sgf, append(notes, cnotes...))
	}
	return parseSGF(data, opt)
}

func convertedRecords(sgf string, notes []string) ([]*Record, error) {
	recs, err := ParseSGF([]byte(sgf))
	if err != nil {
		return nil, err
	}
	for _, r := range recs {
		r.Assumptions = append(append([]string(nil), notes...), r.Assumptions...)
	}
	return recs, nil
}

// ugfDecoder: Pandanet writes its files in Shift_JIS; one that names no
// charset and is not UTF-8 is tried as Shift_JIS first.
func ugfDecoder(d Decoder) Decoder {
	if d == nil {
		return nil
	}
	return func(cs string, data []byte) ([]byte, string, error) {
		if cs == "" {
			if text, used, err := d("Shift_JIS", data); err == nil && !bytes.ContainsRune(text, '\uFFFD') {
				return text, used, nil
			}
		}
		return d(cs, data)
	}
}

// gibDecoder: Tygem is a Korean server, and its client writes .gib files
// in EUC-KR (CP949). Those bytes decode cleanly as GB18030 too, the first
// charset detection tries, and Korean names come out as Chinese mojibake.
// A file that names no charset and is not UTF-8 is read as EUC-KR when
// that gives Hangul and nothing else beyond ASCII; Chinese text read as
// EUC-KR gives Hanja or fails, and goes to detection as before.
func gibDecoder(d Decoder) Decoder {
	if d == nil {
		return nil
	}
	return func(cs string, data []byte) ([]byte, string, error) {
		if cs == "" {
			if text, used, err := d("EUC-KR", data); err == nil && onlyHangul(text) {
				return text, used, nil
			}
		}
		return d(cs, data)
	}
}

// onlyHangul reports whether every character of text beyond ASCII is a
// Hangul syllable or jamo, and there is at least one.
func onlyHangul(text []byte) bool {
	n := 0
	for _, r := range string(text) {
		switch {
		case r < utf8.RuneSelf:
		case r >= 0xAC00 && r <= 0xD7A3, r >= 0x1100 && r <= 0x11FF, r >= 0x3130 && r <= 0x318F:
			n++
		default:
			return false
		}
	}
	return n > 0
}

// sgfWriter builds the SGF text of a converted file.
type sgfWriter struct{ b strings.Builder }

func (w *sgfWriter) prop(id, v string) {
	if v == "" {
		return
	}
	w.b.WriteString(id + "[" + sgfEscape(v) + "]")
}

// gibResults are the codes of a GIB result (GRLT): the winner and how.
var gibResults = map[int]string{0: "B+", 1: "W+", 3: "B+R", 4: "W+R", 7: "B+T", 8: "W+T"}

// gibToSGF converts a Tygem .gib file. Its header lines \[NAME=value\]
// hold the players ("name (rank)"), GAMEINFOMAIN and GAMETAG the result
// (GRLT code, ZIPSU margin ×10), komi (GONGJE ×10) and date; the moves
// follow as "STO 0 n colour x y" (colour 1 Black, 2 White, x and y from
// the top left, 0-based) and "SKI" (a pass); "INI 0 1 h" gives the
// handicap h, its stones on the fixed points. Tygem plays Korean rules.
func gibToSGF(text string) (string, []string, error) {
	var notes []string
	header := map[string]string{}
	var moves []string
	handicap := 0
	last := "" // the colour of the last move
	lines := strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n")
	for i, line := range lines {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, `\[`) && strings.HasSuffix(line, `\]`) {
			k, v, ok := strings.Cut(line[2:len(line)-2], "=")
			if ok {
				header[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			continue
		}
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		switch f[0] {
		case "INI":
			if len(f) >= 4 {
				if h, err := strconv.Atoi(f[3]); err == nil && h >= MinHandicap && h <= MaxHandicap {
					handicap = h
				}
			}
		case "STO":
			if len(f) < 6 {
				return "", nil, &SGFError{Offset: i, Msg: fmt.Sprintf("gib: line %d: STO needs colour and point: %q", i+1, line)}
			}
			x, err1 := strconv.Atoi(f[4])
			y, err2 := strconv.Atoi(f[5])
			c := map[string]string{"1": "B", "2": "W"}[f[3]]
			if err1 != nil || err2 != nil || c == "" || x < 0 || y < 0 || x >= 26 || y >= 26 {
				return "", nil, &SGFError{Offset: i, Msg: fmt.Sprintf("gib: line %d: bad move %q", i+1, line)}
			}
			moves = append(moves, ";"+c+"["+Point{x, y}.SGF()+"]")
			last = c
		case "SKI":
			// A pass by the player to move.
			c := "B"
			if last == "B" || last == "" && handicap >= MinHandicap {
				c = "W"
			}
			moves = append(moves, ";"+c+"[]")
			last = c
		}
	}
	if len(header) == 0 && len(moves) == 0 {
		return "", nil, &SGFError{Msg: "gib: no header and no moves"}
	}
	var w sgfWriter
	w.b.WriteString("(;GM[1]FF[4]SZ[19]RU[Korean]")
	w.prop("AP", "Tygem .gib")
	name := func(v string) (string, string) {
		if i := strings.LastIndex(v, "("); i > 0 && strings.HasSuffix(v, ")") {
			return strings.TrimSpace(v[:i]), strings.TrimSpace(v[i+1 : len(v)-1])
		}
		return v, ""
	}
	pb, br := name(header["GAMEBLACKNAME"])
	pw, wr := name(header["GAMEWHITENAME"])
	w.prop("PB", pb)
	w.prop("BR", br)
	w.prop("PW", pw)
	w.prop("WR", wr)
	w.prop("EV", header["GAMENAME"])
	main := gibFields(header["GAMEINFOMAIN"], ":")
	tag := gibTag(header["GAMETAG"])
	if k, ok := firstOf(main["GONGJE"], tag["G"]); ok {
		if n, err := strconv.Atoi(k); err == nil {
			w.prop("KM", strconv.FormatFloat(float64(n)/10, 'f', -1, 64))
		}
	}
	if d, ok := firstOf(main["GCDT"], tag["C"]); ok {
		d = strings.ReplaceAll(d, ":", "-")
		if len(d) >= 10 {
			d = d[:10]
		}
		w.prop("DT", d)
	}
	// GTIME is the time setting: main time, byo-yomi period (seconds) and
	// periods, "1200-30-3"; kept as SGF TM and OT.
	if t := strings.Split(main["GTIME"], "-"); len(t) == 3 {
		m, err1 := strconv.Atoi(t[0])
		p, err2 := strconv.Atoi(t[1])
		n, err3 := strconv.Atoi(t[2])
		if err1 == nil && err2 == nil && err3 == nil && m >= 0 && p >= 0 && n >= 0 {
			w.prop("TM", strconv.Itoa(m))
			if p > 0 && n > 0 {
				w.prop("OT", fmt.Sprintf("%dx%d byo-yomi", n, p))
			}
		}
	}
	if code, ok := firstOf(main["GRLT"], tag["W"]); ok {
		n, _ := strconv.Atoi(code)
		re, known := gibResults[n]
		switch {
		case !known:
			notes = append(notes, AssumedGIBResultCode.text(code))
		case strings.HasSuffix(re, "+"):
			if z, ok := firstOf(main["ZIPSU"], tag["Z"]); ok {
				if m, err := strconv.Atoi(z); err == nil {
					re += strconv.FormatFloat(float64(m)/10, 'f', -1, 64)
				}
			}
			w.prop("RE", re)
		default:
			w.prop("RE", re)
		}
	}
	if handicap > 0 {
		w.prop("HA", strconv.Itoa(handicap))
	}
	for _, m := range moves {
		w.b.WriteString(m)
	}
	w.b.WriteString(")")
	notes = append(notes, AssumedFromGIB.text())
	return w.b.String(), notes, nil
}

// gibFields reads "A:1,B:2".
func gibFields(s, sep string) map[string]string {
	out := map[string]string{}
	for _, f := range strings.Split(s, ",") {
		if k, v, ok := strings.Cut(f, sep); ok {
			out[strings.TrimSpace(k)] = strings.TrimSpace(v)
		}
	}
	return out
}

// gibTag reads GAMETAG's "S1,R3,D0,G65,W1,Z35,C2009:12:02:22:41": a
// letter and its value.
func gibTag(s string) map[string]string {
	out := map[string]string{}
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if len(f) >= 2 && 'A' <= f[0] && f[0] <= 'Z' {
			if _, ok := out[f[:1]]; !ok {
				out[f[:1]] = f[1:]
			}
		}
	}
	return out
}

func firstOf(vs ...string) (string, bool) {
	for _, v := range vs {
		if v != "" {
			return v, true
		}
	}
	return "", false
}

// ugfTime writes the time setting of a .ugf header, Ptime, as TM. Ptime
// gives each side a field "J;240;0;0": the time system, the main time in
// minutes, and two numbers no description of the format explains (aeb's
// ugi2sgf reads the main time alone), which are left unread.
func ugfTime(w *sgfWriter, ptime string) []string {
	if strings.TrimSpace(ptime) == "" {
		return nil
	}
	var mins []int
	rest := false // a field after the main time is not 0
	for _, f := range strings.Split(ptime, ",") {
		sub := strings.Split(f, ";")
		if len(sub) < 2 {
			continue // the trailing fields hold no ';'
		}
		m, err := strconv.Atoi(strings.TrimSpace(sub[1]))
		if err != nil || m < 0 {
			return []string{AssumedPtimeUnknown.text(ptime)}
		}
		mins = append(mins, m)
		for _, x := range sub[2:] {
			rest = rest || strings.TrimSpace(x) != "0"
		}
	}
	switch {
	case len(mins) == 0:
		return []string{AssumedPtimeUnknown.text(ptime)}
	case slices.ContainsFunc(mins, func(m int) bool { return m != mins[0] }):
		// SGF has one TM for both sides.
		return []string{AssumedPtimeSidesDiffer.text(ptime)}
	case mins[0] == 0:
		return []string{AssumedPtimeNoMain.text(ptime)}
	case time.Duration(mins[0]) > MaxMainTime/time.Minute:
		// Also what keeps mins*60 from overflowing.
		return []string{AssumedPtimeTooLong.text(ptime, MaxMainTime)}
	}
	tm := strconv.Itoa(mins[0] * 60)
	w.prop("TM", tm)
	if rest {
		return []string{AssumedPtimeReadPart.text(ptime, mins[0], tm)}
	}
	return []string{AssumedPtimeRead.text(ptime, mins[0], tm)}
}

// ugfToSGF converts a Pandanet .ugf/.ugi file: a [Header] section of
// Name=value lines (Size, Hdcp=handicap,komi, Winner=colour,margin,
// PlayerB/PlayerW=name,rank,…, Date, Place, Title, Ptime, CoordinateType) and a
// [Data] section of moves "QD,B1,time": the point as two letters from
// 'A' (from the top left, or from the bottom left when CoordinateType is
// IGS), the colour and move number (0 for handicap stones), a point off
// the board for a pass.
func ugfToSGF(text string) (string, []string, error) {
	var notes []string
	header := map[string]string{}
	section := ""
	type ugfMove struct {
		x, y int
		c    string
		num  string
		line int
	}
	var data []ugfMove
	for i, line := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			section = strings.ToUpper(line)
			continue
		}
		switch section {
		case "[HEADER]":
			if k, v, ok := strings.Cut(line, "="); ok {
				header[strings.ToUpper(strings.TrimSpace(k))] = strings.TrimSpace(v)
			}
		case "[DATA]":
			f := strings.Split(line, ",")
			if len(f) < 2 || len(f[0]) < 2 || len(f[1]) < 1 {
				continue
			}
			p := strings.ToUpper(f[0])
			c := strings.ToUpper(f[1][:1])
			if c != "B" && c != "W" {
				continue
			}
			data = append(data, ugfMove{int(p[0]) - 'A', int(p[1]) - 'A', c, f[1][1:], i + 1})
		}
	}
	size := 19
	if v := header["SIZE"]; v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < MinSize || n > MaxSize {
			return "", nil, &SGFError{Msg: fmt.Sprintf("ugf: Size=%s: board size must be %d..%d", v, MinSize, MaxSize)}
		}
		size = n
	}
	if len(header) == 0 && len(data) == 0 {
		return "", nil, &SGFError{Msg: "ugf: no [Header] and no [Data]"}
	}
	var w sgfWriter
	w.b.WriteString("(;GM[1]FF[4]SZ[" + strconv.Itoa(size) + "]")
	w.prop("AP", "Pandanet .ugf")
	rules := "Japanese"
	if r := strings.ToUpper(header["RULE"]); r != "" && r != "JPN" && r != "JAPANESE" {
		if _, ok := Preset(r); ok {
			rules = r
		}
	}
	w.prop("RU", rules)
	player := func(v string) (string, string) {
		f := strings.Split(v, ",")
		if len(f) >= 2 {
			return strings.TrimSpace(f[0]), strings.TrimSpace(f[1])
		}
		return strings.TrimSpace(v), ""
	}
	pb, br := player(header["PLAYERB"])
	pw, wr := player(header["PLAYERW"])
	w.prop("PB", pb)
	w.prop("BR", br)
	w.prop("PW", pw)
	w.prop("WR", wr)
	w.prop("PC", header["PLACE"])
	w.prop("GN", header["TITLE"])
	if d := header["DATE"]; d != "" {
		d, _, _ = strings.Cut(d, ",")
		w.prop("DT", strings.ReplaceAll(strings.TrimSpace(d), "/", "-"))
	}
	notes = append(notes, ugfTime(&w, header["PTIME"])...)
	handicap := 0
	if h := strings.Split(header["HDCP"], ","); len(h) >= 1 && h[0] != "" {
		handicap, _ = strconv.Atoi(strings.TrimSpace(h[0]))
		if len(h) >= 2 {
			w.prop("KM", strings.TrimSpace(h[1]))
		}
		if handicap >= MinHandicap {
			w.prop("HA", strconv.Itoa(handicap))
		}
	}
	if win := strings.Split(header["WINNER"], ","); len(win) >= 1 && win[0] != "" {
		c := strings.ToUpper(strings.TrimSpace(win[0]))
		if c == "B" || c == "W" {
			re := c
			if len(win) >= 2 {
				if m, err := strconv.ParseFloat(strings.TrimSpace(win[1]), 64); err == nil && m > 0 {
					re += "+" + strconv.FormatFloat(m, 'f', -1, 64)
				} else {
					re += "+" + strings.TrimSpace(win[1])
				}
			}
			w.prop("RE", re)
		} else {
			notes = append(notes, AssumedUGFWinnerWrong.text(header["WINNER"]))
		}
	}
	igs := strings.EqualFold(header["COORDINATETYPE"], "IGS")
	var ab []string
	var moves strings.Builder
	for _, m := range data {
		x, y := m.x, m.y
		if igs {
			y = size - 1 - y
		}
		v := ""
		if x >= 0 && y >= 0 && x < size && y < size {
			v = Point{x, y}.SGF()
		}
		if m.num == "0" && m.c == "B" && handicap >= MinHandicap && len(ab) < handicap && moves.Len() == 0 && v != "" {
			ab = append(ab, v)
			continue
		}
		moves.WriteString(";" + m.c + "[" + v + "]")
	}
	if len(ab) > 0 {
		w.b.WriteString("AB")
		for _, p := range ab {
			w.b.WriteString("[" + p + "]")
		}
	}
	w.b.WriteString(moves.String())
	w.b.WriteString(")")
	notes = append(notes, AssumedFromUGF.text())
	return w.b.String(), notes, nil
}

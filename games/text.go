package games

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The text of a record file. The reader turns the whole file into UTF-8
// before it parses: SGF's CA names the charset of the whole file, and in
// Shift_JIS or GBK the second byte of a character may be '\' or ']', which
// would break the value it stands in if the bytes were parsed first.
// UTF-8 (with or without a byte order mark), UTF-16 and Latin-1 are
// decoded here with the standard library; the legacy CJK charsets (GBK,
// Big5, Shift_JIS, EUC-KR, …) by ReadOptions.Decode, which games leaves to
// a package above it (games/charset) so that the rules engine stays pure.

// Decoder turns the bytes of a file in charset into UTF-8. charset is as
// the file names it (CA[GBK]); "" asks the decoder to detect a charset the
// bytes decode cleanly in (they are not UTF-8). It returns the text and
// the canonical name of the charset it used; an error when it cannot.
type Decoder func(charset string, data []byte) (text []byte, used string, err error)

// ReadOptions tune ReadRecords.
type ReadOptions struct {
	// Decode decodes charsets the standard library does not know; nil:
	// bytes that are not UTF-8 are replaced (and the record says so).
	Decode Decoder
}

// utf8Names are the CA values that mean UTF-8 (compared upper-case).
var utf8Names = map[string]bool{"UTF-8": true, "UTF8": true, "US-ASCII": true, "ASCII": true, "": true}

// latin1Names are the CA values of ISO 8859-1, decoded byte by byte.
var latin1Names = map[string]bool{"ISO-8859-1": true, "LATIN1": true, "LATIN-1": true, "ISO8859-1": true, "ISO_8859-1": true}

// toUTF8 returns data as UTF-8 text and what was assumed to make it so.
func toUTF8(data []byte, decode Decoder) ([]byte, []string) {
	var notes []string
	switch {
	case bytes.HasPrefix(data, []byte{0xEF, 0xBB, 0xBF}):
		data = data[3:]
		notes = append(notes, AssumedUTF8BOM.text())
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}), bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		big := data[0] == 0xFE
		data = fromUTF16(data[2:], big)
		notes = append(notes, AssumedUTF16BOM.text())
	case len(data) >= 4 && (data[0] == 0 && data[1] != 0 && data[2] == 0 || data[0] != 0 && data[1] == 0 && data[3] == 0):
		// SGF starts with ASCII '(' or white space: a zero byte beside
		// each of the first characters is UTF-16 without a mark.
		data = fromUTF16(data, data[0] == 0)
		notes = append(notes, AssumedUTF16NoBOM.text())
	}
	ca := strings.ToUpper(strings.TrimSpace(findCharset(data)))
	valid := utf8.Valid(data)
	switch {
	case latin1Names[ca]:
		if !valid || !isASCII(data) {
			data = fromLatin1(data)
		}
		return data, notes
	case utf8Names[ca] && valid:
		return data, notes
	case utf8Names[ca]: // not valid UTF-8: a file labelled UTF-8 or not labelled
		// said: the sentence for a file with no CA, else for its CA.
		said := func(noCA, withCA AssumptionFormat, args ...any) string {
			if ca == "" {
				return noCA.text(args...)
			}
			return withCA.text(append([]any{ca}, args...)...)
		}
		if bad := mostlyUTF8(data); bad > 0 {
			// A name cut short inside a character (Fox's YuanYu client
			// does it) leaves a few bad bytes in a UTF-8 file; read as
			// another charset, every name turns to mojibake and a
			// double-byte character can swallow a ']', and with it KM.
			return []byte(strings.ToValidUTF8(string(data), "\uFFFD")), append(notes, said(AssumedNoCAMostlyUTF8, AssumedCAMostlyUTF8, bad))
		}
		if decode != nil {
			if text, used, err := decode("", data); err == nil {
				return text, append(notes, said(AssumedNoCADetected, AssumedCADetected, used))
			}
		}
		return data, append(notes, said(AssumedNoCAReplaced, AssumedCAReplaced))
	case valid && isASCII(data):
		return data, notes // any charset reads ASCII alike
	}
	if decode != nil {
		text, used, err := decode(ca, data)
		if err == nil && valid && (bytes.ContainsRune(text, utf8.RuneError) || delimiters(text) != delimiters(data)) {
			// The label is wrong (a file re-saved as UTF-8 that kept
			// CA[gb2312]): read as the label says, the UTF-8 bytes give
			// invalid characters or swallow a ']' (and the property
			// after it, RE or KM). In UTF-8 those bytes are delimiters.
			return data, append(notes, AssumedCAWrongLabel.text(ca, used))
		}
		if err == nil {
			return text, append(notes, AssumedCADecoded.text(ca, used))
		}
	}
	if valid {
		return data, append(notes, AssumedCAUnknownUTF8.text(ca))
	}
	return data, append(notes, AssumedCAUnknownInvalid.text(ca))
}

// mostlyUTF8 returns the number of bytes of data that are not UTF-8 when
// the file's characters beyond ASCII are mostly UTF-8 (more valid
// multi-byte characters than invalid bytes), else 0. Text in GBK, Big5 or
// Shift_JIS read as UTF-8 is almost all invalid bytes, so it is not taken
// for UTF-8 here.
func mostlyUTF8(data []byte) int {
	good, bad := 0, 0
	for i := 0; i < len(data); {
		if data[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 {
			bad++
		} else {
			good++
		}
		i += size
	}
	if bad > 0 && good > bad {
		return bad
	}
	return 0
}

// delimiters counts the bytes that delimit SGF values: '[', ']' and '\\'.
func delimiters(b []byte) int {
	n := 0
	for _, c := range b {
		if c == '[' || c == ']' || c == '\\' {
			n++
		}
	}
	return n
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

// findCharset returns the first CA value of the file, "" if none. A CA
// stands in the root node, before any move: looking at the bytes suffices,
// since every charset SGF files are written in keeps ASCII as it is.
func findCharset(data []byte) string {
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("CA"))
		if i < 0 {
			return ""
		}
		i += off
		off = i + 2
		if i > 0 && ('A' <= data[i-1] && data[i-1] <= 'Z') {
			continue // the end of a longer name
		}
		j := off
		for j < len(data) && isSpace(data[j]) {
			j++
		}
		if j >= len(data) || data[j] != '[' {
			continue
		}
		end := bytes.IndexByte(data[j:], ']')
		if end < 0 || end > 64 {
			return ""
		}
		return string(data[j+1 : j+end])
	}
}

func fromUTF16(b []byte, big bool) []byte {
	u := make([]uint16, len(b)/2)
	for i := range u {
		if big {
			u[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
		} else {
			u[i] = uint16(b[2*i+1])<<8 | uint16(b[2*i])
		}
	}
	return []byte(string(utf16.Decode(u)))
}

func fromLatin1(b []byte) []byte {
	out := make([]byte, 0, len(b)+len(b)/8)
	for _, c := range b {
		out = utf8.AppendRune(out, rune(c))
	}
	return out
}

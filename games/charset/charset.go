package charset

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"
)

// aliases are charset names seen in CA that the WHATWG label index
// (htmlindex) does not know, mapped to one it does.
var aliases = map[string]string{
	"gb2312-80": "gbk", "cp936": "gbk", "ms936": "gbk", "euc-cn": "gbk", "gb_2312": "gbk", "gb-2312": "gbk",
	"gb-18030": "gb18030", "gbk2k": "gb18030",
	"big-5": "big5", "cp950": "big5", "ms950": "big5", "big5hkscs": "big5-hkscs",
	"sjis": "shift_jis", "shift-jis": "shift_jis", "cp932": "shift_jis", "ms932": "shift_jis", "shiftjis": "shift_jis",
	"eucjp": "euc-jp", "euckr": "euc-kr", "cp949": "euc-kr", "ms949": "euc-kr", "uhc": "euc-kr", "ks_c_5601": "euc-kr", "ksc5601": "euc-kr",
}

// detectOrder is decided: the charsets tried, in order, for a file that
// names none and is not UTF-8. Chinese servers (Fox and others) write most
// such files, so GB18030 (which reads GB2312 and GBK) comes first.
var detectOrder = []struct {
	name string
	enc  encoding.Encoding
}{
	{"GB18030", simplifiedchinese.GB18030},
	{"Big5", traditionalchinese.Big5},
	{"Shift_JIS", japanese.ShiftJIS},
	{"EUC-KR", korean.EUCKR},
}

// ErrUnknown: the charset is not one this package decodes, or no charset
// decodes the bytes cleanly.
var ErrUnknown = errors.New("charset: unknown charset or bytes that decode in none")

// Decode decodes data from the named charset into UTF-8 and returns the
// canonical name of the charset used. name "" detects: EUC-KR when the
// bytes read as Korean text (readKorean), else the first charset of
// detectOrder in which the bytes decode with no invalid sequence.
func Decode(name string, data []byte) ([]byte, string, error) {
	if strings.TrimSpace(name) == "" {
		if text, ok := readKorean(data); ok {
			return text, "EUC-KR", nil
		}
		for _, d := range detectOrder {
			if text, err := clean(d.enc, data); err == nil {
				return text, d.name, nil
			}
		}
		return nil, "", ErrUnknown
	}
	enc, canonical, err := lookup(name)
	if err != nil {
		return nil, "", err
	}
	text, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return nil, "", fmt.Errorf("charset %s: %w", canonical, err)
	}
	return text, canonical, nil
}

// lookup finds the encoding of a CA value.
func lookup(name string) (encoding.Encoding, string, error) {
	n := strings.ToLower(strings.TrimSpace(name))
	if a, ok := aliases[n]; ok {
		n = a
	}
	enc, err := htmlindex.Get(n)
	if err != nil {
		return nil, "", fmt.Errorf("%w: %q", ErrUnknown, name)
	}
	// The WHATWG index reads GB2312 and GBK as GBK; GB18030 reads both
	// and more, so every Chinese name gets it.
	if enc == simplifiedchinese.GBK {
		enc = simplifiedchinese.GB18030
	}
	canonical, err := htmlindex.Name(enc)
	if err != nil {
		canonical = n
	}
	return enc, canonical, nil
}

// clean decodes data and fails when any byte sequence was invalid (the
// decoders replace those with U+FFFD).
func clean(enc encoding.Encoding, data []byte) ([]byte, error) {
	text, err := enc.NewDecoder().Bytes(data)
	if err != nil {
		return nil, err
	}
	if bytes.ContainsRune(text, utf8.RuneError) || !utf8.Valid(text) {
		return nil, ErrUnknown
	}
	return text, nil
}

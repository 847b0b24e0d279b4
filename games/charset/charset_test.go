package charset_test

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/japanese"
	"golang.org/x/text/encoding/korean"
	"golang.org/x/text/encoding/simplifiedchinese"
	"golang.org/x/text/encoding/traditionalchinese"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/games/charset"
)

func encode(t *testing.T, e encoding.Encoding, s string) []byte {
	t.Helper()
	b, err := e.NewEncoder().Bytes([]byte(s))
	if err != nil {
		t.Fatalf("encoding %q: %v", s, err)
	}
	return b
}

func read(t *testing.T, data []byte) *games.Record {
	t.Helper()
	recs, err := games.ReadRecords(data, games.ReadOptions{Decode: charset.Decode})
	if err != nil || len(recs) != 1 {
		t.Fatalf("read: %v (%d records)", err, len(recs))
	}
	return recs[0]
}

func hasNote(r *games.Record, s string) bool {
	for _, a := range r.Assumptions {
		if strings.Contains(a, s) {
			return true
		}
	}
	return false
}

// TestDecodeByCA: each charset a CA names is decoded, names included
// whose bytes hold '\' or ']' (Shift_JIS 表 is 0x95 0x5C).
func TestDecodeByCA(t *testing.T) {
	for _, tc := range []struct {
		ca           string
		enc          encoding.Encoding
		black, white string
	}{
		{"gb2312", simplifiedchinese.HZGB2312, "柯洁", "申真谞"},
		{"GBK", simplifiedchinese.GBK, "柯洁", "申真谞"},
		{"GB18030", simplifiedchinese.GB18030, "柯洁", "申真谞"},
		{"Big5", traditionalchinese.Big5, "周俊勳", "林海峰"},
		{"Shift_JIS", japanese.ShiftJIS, "井山裕太", "表彰"},
		{"EUC-KR", korean.EUCKR, "이세돌", "박정환"},
	} {
		enc := tc.enc
		if tc.ca == "gb2312" {
			enc = simplifiedchinese.GBK // what files labelled gb2312 hold
		}
		head := "(;CA[" + tc.ca + "]SZ[19]PB["
		data := append([]byte(head), encode(t, enc, tc.black)...)
		data = append(data, "]PW["...)
		data = append(data, encode(t, enc, tc.white)...)
		data = append(data, "]C["...)
		data = append(data, encode(t, enc, "一局")...)
		data = append(data, "];B[pd])"...)
		r := read(t, data)
		if r.Black.Name != tc.black || r.White.Name != tc.white || len(r.Moves) != 1 || !hasNote(r, "texts decoded from") {
			t.Errorf("CA[%s]: black %q white %q moves %v notes %q", tc.ca, r.Black.Name, r.White.Name, r.Moves, r.Assumptions)
		}
	}
}

// TestDetectGB18030: a file without CA whose bytes are not UTF-8 is read
// as GB18030 when it decodes cleanly, and says so.
func TestDetectGB18030(t *testing.T) {
	data := append([]byte("(;SZ[19]PB["), encode(t, simplifiedchinese.GBK, "古力")...)
	data = append(data, "]PW["...)
	data = append(data, encode(t, simplifiedchinese.GBK, "常昊")...)
	data = append(data, "];B[pd])"...)
	r := read(t, data)
	if r.Black.Name != "古力" || r.White.Name != "常昊" || !hasNote(r, "decoded as GB18030") {
		t.Errorf("detected: %q %q %q", r.Black.Name, r.White.Name, r.Assumptions)
	}
	// UTF-8 stays UTF-8, with nothing to say.
	r = read(t, []byte("(;SZ[19]KM[7.5]PB[古力];B[pd])"))
	if r.Black.Name != "古力" || len(r.Assumptions) != 0 {
		t.Errorf("utf-8: %q %q", r.Black.Name, r.Assumptions)
	}
}

// TestDetectKorean: a Korean file without CA in EUC-KR decodes cleanly
// as GB18030 too (이세돌 → 捞技倒); it is read as EUC-KR when that gives
// common Korean and GB18030 rare characters, and says so. Chinese files
// stay GB18030, their text read as EUC-KR being rare syllables (柯洁 →
// 온썅) or Hanja.
func TestDetectKorean(t *testing.T) {
	for _, tc := range []struct {
		enc                  encoding.Encoding
		black, white, result string
		charset, re          string
	}{
		{korean.EUCKR, "이세돌", "박정환", "백 불계승", "EUC-KR", "W+R"},
		{korean.EUCKR, "신진서", "최정", "", "EUC-KR", ""},
		{korean.EUCKR, "송태곤", "조훈현", "", "EUC-KR", ""},
		{simplifiedchinese.GBK, "柯洁", "古力", "黑中盘胜", "GB18030", "B+R"},
		{simplifiedchinese.GBK, "柯洁", "常昊", "", "GB18030", ""},
		{simplifiedchinese.GBK, "朴廷桓", "李昌镐", "白中盘胜", "GB18030", "W+R"},
		{simplifiedchinese.GBK, "古力", "丁浩", "", "GB18030", ""},
		// Read as EUC-KR, 3 common syllables of 4 and a Hanja (온썅 剋랑봉).
		{simplifiedchinese.GBK, "柯洁", "谢尔豪", "", "GB18030", ""},
	} {
		in := fmt.Sprintf("(;SZ[19]PB[%s]PW[%s]", tc.black, tc.white)
		if tc.result != "" {
			in += "RE[" + tc.result + "]"
		}
		r := read(t, encode(t, tc.enc, in+";B[pd])"))
		if r.Black.Name != tc.black || r.White.Name != tc.white || r.Result != tc.re || !hasNote(r, "no CA and the bytes are not UTF-8: decoded as "+tc.charset) {
			t.Errorf("%s %s: black %q white %q result %q (%q)", tc.black, tc.white, r.Black.Name, r.White.Name, r.Result, r.Assumptions)
		}
	}
	// Named by CA, a charset is not second-guessed.
	r := read(t, encode(t, simplifiedchinese.GBK, "(;CA[GBK]SZ[19]PB[捞技倒];B[pd])"))
	if r.Black.Name != "捞技倒" {
		t.Errorf("CA[GBK]: %q", r.Black.Name)
	}
}

// TestCutUTF8StaysUTF8: a UTF-8 file whose name was cut inside a
// character (as Fox's YuanYu client writes PW[东方明\xe7\x8f]) is read as
// UTF-8 with those bytes replaced, labelled or not. Detected as GB18030
// or Shift_JIS, the names became mojibake and the cut character took the
// ']' after it, and with it WR and KM.
func TestCutUTF8StaysUTF8(t *testing.T) {
	for _, head := range []string{"(;CA[UTF-8]AP[YuanYu]", "(;"} {
		data := []byte(head + "SZ[19]PB[扫地僧2016]BR[9段]PW[东方明\xe7\x8f]WR[9段]KM[0]HA[0]RE[W+R];B[dd];W[pd])")
		r := read(t, data)
		if r.Black.Name != "扫地僧2016" || r.Black.Rank != "9段" || r.White.Name != "东方明\uFFFD" || r.White.Rank != "9段" ||
			r.Komi != 0 || r.Result != "W+R" || !hasNote(r, "2 byte(s) are not UTF-8") {
			t.Errorf("%s: black %q %q white %q %q komi %v %q", head, r.Black.Name, r.Black.Rank, r.White.Name, r.White.Rank, r.Komi, r.Assumptions)
		}
	}
}

// TestWrongLabelUTF8: a UTF-8 file that kept CA[gb2312] (re-saved by an
// editor) is read as UTF-8 when decoding it as the label says breaks it:
// 申真谞 read as GB18030 swallows the ']' after it, and RE with it.
func TestWrongLabelUTF8(t *testing.T) {
	r := read(t, []byte("(;CA[gb2312]SZ[19]PB[柯洁]PW[申真谞]RE[B+R];B[pd])"))
	if r.Black.Name != "柯洁" || r.White.Name != "申真谞" || r.Result != "B+R" || !hasNote(r, "but the bytes are UTF-8") {
		t.Errorf("black %q white %q result %q (%q)", r.Black.Name, r.White.Name, r.Result, r.Assumptions)
	}
}

// TestGIBCharset: a Tygem .gib names no charset; Korean names are
// EUC-KR (they decode cleanly as GB18030 too, into mojibake), Chinese
// ones GBK, and each is read in its own.
func TestGIBCharset(t *testing.T) {
	const gib = "\\[GAMEINFOMAIN=GRLT:3,ZIPSU:0,GONGJE:65,\\]\n\\[GAMEBLACKNAME=%s (9D)\\]\n\\[GAMEWHITENAME=%s (9D)\\]\nINI 0 1 0 &4\nSTO 0 1 1 3 3\n"
	for _, tc := range []struct {
		enc          encoding.Encoding
		black, white string
	}{
		{korean.EUCKR, "이세돌", "박정환"},
		{simplifiedchinese.GBK, "柯洁", "朴廷桓"},
	} {
		r := read(t, encode(t, tc.enc, fmt.Sprintf(gib, tc.black, tc.white)))
		if r.Black.Name != tc.black || r.White.Name != tc.white || r.Result != "B+R" {
			t.Errorf("black %q white %q result %q, want %q %q (%q)", r.Black.Name, r.White.Name, r.Result, tc.black, tc.white, r.Assumptions)
		}
	}
}

func TestDecodeErrors(t *testing.T) {
	if _, _, err := charset.Decode("klingon", []byte("x")); err == nil {
		t.Error("an unknown charset decoded")
	}
	// 0x80 alone is invalid in every detected charset.
	if _, _, err := charset.Decode("", []byte{'a', 0x80, 0x80, 0xff}); err == nil {
		t.Error("bytes valid in no charset were detected")
	}
	// A charset we cannot decode: read as UTF-8 with replacement, said.
	r := read(t, []byte("(;CA[klingon]SZ[9]PB[\xff];B[ee])"))
	if !strings.Contains(r.Black.Name, "\uFFFD") || !hasNote(r, "CA[KLINGON]") {
		t.Errorf("%q %q", r.Black.Name, r.Assumptions)
	}
}

// FuzzDetect: any bytes are detected as some charset, giving valid UTF-8
// with no replacement character, or refused; never a panic.
func FuzzDetect(f *testing.F) {
	f.Add([]byte("(;PB[\xc0\xcc\xbc\xbc\xb5\xb9]PW[\xb9\xda\xc1\xa4\xc8\xaf];B[ee])"))
	f.Add([]byte("(;PB[\xbf\xc2\xbd\xe0];B[ee])"))
	f.Add([]byte{0xb0, 0xa1, 0xff})
	f.Fuzz(func(t *testing.T, data []byte) {
		text, used, err := charset.Decode("", data)
		if err != nil {
			return
		}
		if !utf8.Valid(text) || strings.ContainsRune(string(text), utf8.RuneError) || used == "" {
			t.Fatalf("%q decoded as %s to %q", data, used, text)
		}
	})
}

// Package charset turns game records written in the legacy charsets of
// Go servers and databases (GB2312, GBK, GB18030, Big5, Shift_JIS,
// EUC-JP, EUC-KR, the Windows code pages) into UTF-8. Decode is a
// games.Decoder: pass it in games.ReadOptions, and the record reader
// decodes a file as its CA property says, or, when a file names no
// charset and its bytes are not UTF-8, as the first of the usual CJK
// charsets its bytes decode in without error (GB18030 first: Chinese
// servers write most such files), except that bytes reading as Korean
// text in EUC-KR, and as rare characters in GB18030, are EUC-KR.
//
// The rules engine (games) is pure and imports only the standard library;
// the decoding tables live here, with golang.org/x/text, so that games
// need not import them. charset imports only the standard library and
// golang.org/x/text; it must not import games or any other package of
// this module (it is a plain function of bytes, which games calls through
// its Decoder type).
package charset

package csvsafe

import "strings"

// Cell is s as a spreadsheet shows it as text: a leading =, +, -, @, tab
// or carriage return (what starts a formula, or hides one) gets a
// leading apostrophe. Only for text: a number such as -12 must not go
// through it.
func Cell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}

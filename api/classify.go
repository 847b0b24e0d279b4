package api

import "slices"

// Classify is the one error table (errorTable) for the other edge: the
// pages (web) show the same status and stable code the API would answer
// with. Unknown errors are 500 "internal", their text never shown.
func Classify(err error) (status int, code, message string) {
	e, _ := classify(err)
	return e.Status, e.Code, e.Message
}

// ErrorField is the request field err names (the "field" of its details),
// "" when it names none: pages put the field's rule or name in their own
// language beside the code's text.
func ErrorField(err error) string {
	e, _ := classify(err)
	f, _ := e.Details["field"].(string)
	return f
}

// Codes lists the stable codes of the error table, for the pages'
// catalogue test: each has a text in both languages.
func Codes() []string {
	var out []string
	for _, r := range errorTable {
		if !slices.Contains(out, r.code) {
			out = append(out, r.code)
		}
	}
	return out
}

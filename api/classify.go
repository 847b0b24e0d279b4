package api

// Classify is the one error table (errorTable) for the other edge: the
// pages (web) show the same status and stable code the API would answer
// with. Unknown errors are 500 "internal", their text never shown.
func Classify(err error) (status int, code, message string) {
	e, _ := classify(err)
	return e.Status, e.Code, e.Message
}

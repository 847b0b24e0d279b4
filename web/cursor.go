package web

import (
	"encoding/base64"
	"encoding/json"
	"strconv"
)

// encodeCursor and decodeCursor carry a page's position in a query
// parameter.
func encodeCursor(v any) string {
	b, _ := json.Marshal(v)
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(s string, v any) error {
	b, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
}

func atoiDefault(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 1_000_000 {
		return def
	}
	return n
}

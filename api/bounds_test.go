package api_test

import (
	"fmt"
	"strings"
	"testing"
)

// TestGameBounds: every number or text of a submission has a decided
// range, refused naming the field and, where one is passed, the limit;
// nothing refused is stored (issue 11 item 6).
func TestGameBounds(t *testing.T) {
	e := newGamesEnv(t)
	good := func(source string) map[string]any { return gameBody(randomGame(21, 50, false), source, "alice", "bob") }
	for _, tc := range []struct {
		name  string
		edit  func(map[string]any)
		field string
		limit float64
	}{
		{"size 0", func(b map[string]any) { b["size"] = 0; b["moves"] = []string{} }, "size", 0},
		{"size 26", func(b map[string]any) { b["size"] = 26 }, "size", 0},
		{"long source_id", func(b map[string]any) { b["source_id"] = strings.Repeat("x", 10_000) }, "source_id", 128},
		{"control character in source_id", func(b map[string]any) { b["source_id"] = "fox/1\x1b[2J" }, "source_id", 0},
		{"long black_id", func(b map[string]any) { delete(b, "black"); b["black_id"] = strings.Repeat("9", 65) }, "black_id", 64},
		{"time control overflow", func(b map[string]any) { b["time_control"] = fmt.Sprintf("%d+0x0", int64(1)<<55) }, "time_control", 0},
		{"time control not in the text form", func(b map[string]any) { b["time_control"] = "ten minutes" }, "time_control", 0},
	} {
		b := good("bounds-" + strings.ReplaceAll(tc.name, " ", "-"))
		tc.edit(b)
		out := e.submit(b, 422, "invalid_field")
		d := out.errDetails()
		if d["field"] != tc.field || tc.limit != 0 && d["limit"] != tc.limit {
			t.Errorf("%s: %s, want field %s and limit %v", tc.name, out.Body, tc.field, tc.limit)
		}
	}
	// Nothing was stored: the first source_id is free.
	e.submit(good("bounds-size-0"), 201, "")
}

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

// TestRefusalsNameTheRealFault (issue 11 item 9): a resignation whose
// result cannot be read is a bad result, not a missing end_by; a body of
// a type neither JSON nor SGF is 415, not "malformed JSON at byte 1".
func TestRefusalsNameTheRealFault(t *testing.T) {
	e := newGamesEnv(t)
	b := gameBody(randomGame(22, 30, false), "fault-1", "alice", "bob")
	delete(b, "end_by")
	b["result"] = "black resigned"
	if out := e.submit(b, 422, "invalid_field"); out.errDetails()["field"] != "result" {
		t.Errorf("malformed result with end resign: %s, want field result", out.Body)
	}
	for _, ct := range []string{"text/plain", "multipart/form-data; boundary=x", "application/xml"} {
		out := e.expect(req{method: "POST", path: "/api/v1/games", token: e.server, body: `{"source_id":"fault-2"}`, header: map[string]string{"Content-Type": ct}}, 415, "unsupported_media_type")
		if msg := out.JSON["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "application/x-go-sgf") || strings.Contains(msg, "malformed") {
			t.Errorf("%s: %s", ct, out.Body)
		}
	}
	// An SGF file sent without its type (curl --data-binary's form type,
	// JSON, or none) is named as one, with the type to send.
	for _, ct := range []string{"application/x-www-form-urlencoded", "application/json", ""} {
		h := map[string]string{}
		if ct != "" {
			h["Content-Type"] = ct
		}
		out := e.expect(req{method: "POST", path: "/api/v1/games?source_id=fault-3", token: e.server, body: "\n(;GM[1]SZ[9]PB[alice]PW[bob];B[ee])", header: h}, 415, "unsupported_media_type")
		if msg := out.JSON["error"].(map[string]any)["message"].(string); !strings.Contains(msg, "SGF record") || !strings.Contains(msg, "application/x-go-sgf") {
			t.Errorf("SGF sent as %q: %s", ct, out.Body)
		}
	}
	e.expect(req{method: "POST", path: "/api/v1/auth/login", body: `{}`, header: map[string]string{"Content-Type": "text/plain"}}, 415, "unsupported_media_type")
	e.expect(req{method: "POST", path: "/api/v1/auth/login", body: `{"username":"alice","password":"` + pw + `"}`, header: map[string]string{"Content-Type": "application/json; charset=utf-8"}}, 200, "")
}

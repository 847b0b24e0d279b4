package api

import (
	"encoding/json"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/gin-gonic/gin"
)

type pos struct {
	Score int64  `json:"s"`
	User  string `json:"u"`
}

func TestPageParams(t *testing.T) {
	cur, err := EncodeCursor(pos{Score: 1200, User: "bob"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		query     string
		limit     int
		hasCursor bool
		code      string
	}{
		{"", DefaultLimit, false, ""},
		{"limit=1", 1, false, ""},
		{"limit=500", 500, false, ""},
		{"limit=501", 0, false, "invalid_parameter"},
		{"limit=0", 0, false, "invalid_parameter"},
		{"limit=-3", 0, false, "invalid_parameter"},
		{"limit=ten", 0, false, "invalid_parameter"},
		{"cursor=" + cur, DefaultLimit, true, ""},
		{"cursor=", DefaultLimit, false, ""},
		{"limit=7&cursor=" + cur, 7, true, ""},
		{"cursor=not*base64", 0, false, "invalid_cursor"},
		{"cursor=e30x", 0, false, "invalid_cursor"},       // base64 of "{}1": trailing garbage
		{"cursor=eyJ4IjoxfQ", 0, false, "invalid_cursor"}, // {"x":1}: another route's cursor
	} {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest("GET", "/list?"+tc.query, nil)
		var p pos
		limit, has, err := PageParams(c, &p)
		var e *Error
		switch {
		case tc.code != "":
			if !errors.As(err, &e) || e.Code != tc.code || e.Status != 400 {
				t.Errorf("%q: err %v, want 400 %s", tc.query, err, tc.code)
			}
		case err != nil || limit != tc.limit || has != tc.hasCursor:
			t.Errorf("%q = %d, %v, %v; want %d, %v", tc.query, limit, has, err, tc.limit, tc.hasCursor)
		case has && p != (pos{Score: 1200, User: "bob"}):
			t.Errorf("%q decoded %+v", tc.query, p)
		}
	}
}

func TestListJSON(t *testing.T) {
	for _, tc := range []struct {
		list List[int]
		want string
	}{
		{NewList[int](nil, ""), `{"items":[]}`},
		{NewList([]int{1, 2}, "abc"), `{"items":[1,2],"next_cursor":"abc"}`},
	} {
		b, _ := json.Marshal(tc.list)
		if string(b) != tc.want {
			t.Errorf("%s, want %s", b, tc.want)
		}
	}
}

func FuzzDecodeCursor(f *testing.F) {
	c, _ := EncodeCursor(pos{Score: -5, User: "x"})
	f.Add(c)
	f.Add("")
	f.Add("e30")
	f.Fuzz(func(t *testing.T, s string) {
		var p pos
		if err := DecodeCursor(s, &p); err != nil {
			return
		}
		// What decodes re-encodes to a cursor that decodes the same.
		again, err := EncodeCursor(p)
		if err != nil {
			t.Fatal(err)
		}
		var q pos
		if err := DecodeCursor(again, &q); err != nil || q != p {
			t.Fatalf("round trip of %q: %+v -> %+v, %v", s, p, q, err)
		}
	})
}

// A cursor whose item has left the list (a promotion decided between two
// pages) goes on after where it stood in a list in its keys' order, and
// is refused in another, instead of starting over at the first page.
func TestPageAfterAShrunkList(t *testing.T) {
	id := func(s string) string { return s }
	page := func(items []string, cursor string) (List[string], error) {
		c, _ := gin.CreateTestContext(httptest.NewRecorder())
		c.Request = httptest.NewRequest("GET", "/list?limit=2&cursor="+cursor, nil)
		return pageAfter(c, items, id, id)
	}
	first, err := page([]string{"a", "b", "c", "d"}, "")
	if err != nil || len(first.Items) != 2 || first.NextCursor == "" {
		t.Fatalf("first page: %+v, %v", first, err)
	}
	if next, err := page([]string{"a", "b", "c", "d"}, first.NextCursor); err != nil || len(next.Items) != 2 || next.Items[0] != "c" {
		t.Fatalf("second page: %+v, %v", next, err)
	}
	if next, err := page([]string{"a", "c", "d"}, first.NextCursor); err != nil || len(next.Items) != 2 || next.Items[0] != "c" || next.Items[1] != "d" {
		t.Fatalf("after b left the sorted list: %+v, %v; want c, d", next, err)
	}
	if next, err := page([]string{"a", "d"}, first.NextCursor); err != nil || len(next.Items) != 1 || next.Items[0] != "d" {
		t.Fatalf("after b and c left the sorted list: %+v, %v; want d", next, err)
	}
	if next, err := page([]string{"d", "a", "c"}, first.NextCursor); err == nil {
		t.Fatalf("after b left an unsorted list: %+v, want invalid_cursor", next)
	} else if e := (*Error)(nil); !errors.As(err, &e) || e.Code != "invalid_cursor" || e.Status != 400 {
		t.Fatalf("after b left an unsorted list: %v, want 400 invalid_cursor", err)
	}
}

package web_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
)

// BenchmarkClassPage renders a 40-student class's page (the table of
// every student, their ledgers read) for its teacher: the server's side
// of opening the page, on the in-memory stores and on the real ones
// (embedded FerretDB, the test redis-server).
func BenchmarkClassPage(b *testing.B) {
	b.Run("memory", func(b *testing.B) { benchClassPage(b, false) })
	b.Run("ferretdb", func(b *testing.B) { benchClassPage(b, true) })
}

func benchClassPage(b *testing.B, real bool) {
	w := newWorldOn(b, 40, real)
	br := newBrowser(b, w.base)
	br.login(teacherName)
	u, _ := url.Parse(w.base)
	req := httptest.NewRequest("GET", "/classes/"+w.class.ID, nil)
	for _, c := range br.c.Jar.Cookies(u) {
		req.AddCookie(c)
	}
	b.ReportAllocs()
	for b.Loop() {
		rec := httptest.NewRecorder()
		w.st.HTTP.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), w.students[39]) {
			b.Fatalf("class page: %d", rec.Code)
		}
	}
}

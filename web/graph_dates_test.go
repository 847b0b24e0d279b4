package web_test

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// graphDays are the first and last day a graph's axis is labelled with.
func graphDays(t *testing.T, body, id string) (string, string) {
	t.Helper()
	i := strings.Index(body, `id="`+id+`"`)
	if i < 0 {
		t.Fatalf("no graph %s in\n%s", id, body)
	}
	svg := body[i : i+strings.Index(body[i:], "</svg>")]
	m := regexp.MustCompile(`font-size="13"[^>]*>(\d{4}-\d\d-\d\d)<`).FindAllStringSubmatch(svg, -1)
	if len(m) != 2 {
		t.Fatalf("graph %s has no two day labels: %q", id, m)
	}
	return m[0][1], m[1][1]
}

// TestGraphDaysInThePagesZone: a student's progress graph is labelled
// with the days of the period in the school's time zone, as the class's
// progress graph and its form are (a school in Shanghai saw the day
// before each); a profile's graph ends today in the viewer's zone, not
// tomorrow.
func TestGraphDaysInThePagesZone(t *testing.T) {
	w := newWorld(t, 2)
	b := newBrowser(t, w.base)
	b.login(teacherName)
	cls := "/classes/" + url.PathEscape(w.class.ID)
	_, _, body := b.get(cls + "/progress?from=2026-03-01&to=2026-03-07")
	from, to := graphDays(t, body, "class-graph")
	if from != "2026-03-01" || to != "2026-03-07" {
		t.Fatalf("class graph %s to %s", from, to)
	}
	_, _, body = b.get(cls + "/students/" + w.students[0] + "?from=2026-03-01&to=2026-03-07")
	if f, l := graphDays(t, body, "rank-graph"); f != from || l != to {
		t.Errorf("the student's graph runs %s to %s, the class's %s to %s", f, l, from, to)
	}

	w.clock.Advance(72 * time.Hour)
	today := w.clock.Now().UTC().Format("2006-01-02")
	b = newBrowser(t, w.base) // the session has expired
	b.login(w.students[0])
	_, _, body = b.get("/players/" + w.students[0])
	if _, l := graphDays(t, body, "rank-graph"); l != today {
		t.Errorf("the profile's graph ends %s, today is %s", l, today)
	}
}

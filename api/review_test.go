package api_test

import (
	"strings"
	"testing"
)

// TestAuditRangeEndsAfterItStarts: an audit query whose to is not after
// its from is refused naming to, on both audit routes, not answered with
// an empty list.
func TestAuditRangeEndsAfterItStarts(t *testing.T) {
	w := newAdminWorld(t)
	for _, path := range []string{"/api/v1/admin/audit", "/api/v1/players/bob/audit"} {
		for _, q := range []string{"?from=2026-03-10T00:00:00Z&to=2026-03-01T00:00:00Z", "?from=2026-03-01T00:00:00Z&to=2026-03-01T00:00:00Z"} {
			out := w.expect(req{method: "GET", path: path + q, token: w.admin}, 400, "invalid_parameter")
			if out.errDetails()["parameter"] != "to" || !strings.Contains(string(out.Body), "must be after from") {
				t.Errorf("%s%s: %s", path, q, out.Body)
			}
		}
		w.expect(req{method: "GET", path: path + "?from=2026-02-01T00:00:00Z&to=2026-03-02T00:00:00Z", token: w.admin}, 200, "")
	}
}

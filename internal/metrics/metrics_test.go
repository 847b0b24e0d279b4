package metrics_test

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/weiqi-platform/rank/internal/metrics"
)

func TestRegistryExposition(t *testing.T) {
	r := metrics.New()
	r.ObserveRequest("POST", "/api/v1/auth/login", 429, 3*time.Millisecond)
	r.ObserveRequest("POST", "/api/v1/auth/login", 429, 4*time.Millisecond)
	r.GameAccepted()
	r.GameRefused("illegal_move")
	r.GameRefused("illegal_move")
	r.GameRefused("result_mismatch")
	r.RatingUpdated()

	rec := httptest.NewRecorder()
	r.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	text := string(body)
	for _, want := range []string{
		`rank_http_requests_total{method="POST",route="/api/v1/auth/login",status="429"} 2`,
		`rank_http_request_duration_seconds_count{method="POST",route="/api/v1/auth/login",status="429"} 2`,
		`rank_http_request_duration_seconds_bucket{method="POST",route="/api/v1/auth/login",status="429",le="0.0025"} 0`,
		`rank_http_request_duration_seconds_bucket{method="POST",route="/api/v1/auth/login",status="429",le="0.005"} 2`,
		`rank_games_accepted_total 1`,
		`rank_games_refused_total{reason="illegal_move"} 2`,
		`rank_games_refused_total{reason="result_mismatch"} 1`,
		`rank_rating_updates_total 1`,
		`go_goroutines `,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

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
	r.QueueLength("19/600+3x30/chinese/r", 7)
	r.Paired("19/600+3x30/chinese/r", 4*time.Second)
	r.Paired("19/600+3x30/chinese/r", 15*time.Second)
	r.LevelGap("19/600+3x30/chinese/r", 40)

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
		`rank_matchmaking_queue_length{pool="19/600+3x30/chinese/r"} 7`,
		`rank_matchmaking_wait_seconds_bucket{pool="19/600+3x30/chinese/r",le="5"} 1`,
		`rank_matchmaking_wait_seconds_count{pool="19/600+3x30/chinese/r"} 2`,
		`rank_matchmaking_level_gap_points_bucket{pool="19/600+3x30/chinese/r",le="25"} 0`,
		`rank_matchmaking_level_gap_points_bucket{pool="19/600+3x30/chinese/r",le="50"} 1`,
		`go_goroutines `,
	} {
		if !strings.Contains(text, want) {
			t.Errorf("exposition lacks %q", want)
		}
	}
}

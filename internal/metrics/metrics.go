package metrics

import (
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Recorder is every domain-side method of Registry: what game submission
// and the rating service report. Domain packages declare the subset they
// call; Discard is a Recorder that drops everything.
type Recorder interface {
	GameAccepted()
	GameRefused(reason string)
	RatingUpdated()
}

// Discard records nothing.
type Discard struct{}

func (Discard) GameAccepted()             {}
func (Discard) GameRefused(reason string) {}
func (Discard) RatingUpdated()            {}

// Namespace prefixes every metric name.
const Namespace = "rank"

// Registry holds rankd's metrics.
type Registry struct {
	reg      *prometheus.Registry
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	accepted prometheus.Counter
	refused  *prometheus.CounterVec
	ratings  prometheus.Counter
	queue    *prometheus.GaugeVec
	waited   *prometheus.HistogramVec
	gap      *prometheus.HistogramVec
}

var (
	_ Recorder = (*Registry)(nil)
	_ Recorder = Discard{}
)

// New returns a Registry with the Go runtime and process collectors.
func New() *Registry {
	r := &Registry{
		reg: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "http_requests_total",
			Help: "HTTP requests by method, route pattern and status.",
		}, []string{"method", "route", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "http_request_duration_seconds",
			Help:    "HTTP request latency by method, route pattern and status.",
			Buckets: []float64{.0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5},
		}, []string{"method", "route", "status"}),
		accepted: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "games_accepted_total",
			Help: "Finished games accepted (stored to be rated).",
		}),
		refused: prometheus.NewCounterVec(prometheus.CounterOpts{
			Namespace: Namespace, Name: "games_refused_total",
			Help: "Finished games refused, by reason (the API error code).",
		}, []string{"reason"}),
		ratings: prometheus.NewCounter(prometheus.CounterOpts{
			Namespace: Namespace, Name: "rating_updates_total",
			Help: "Rating updates applied (one per rated game).",
		}),
		queue: prometheus.NewGaugeVec(prometheus.GaugeOpts{
			Namespace: Namespace, Name: "matchmaking_queue_length",
			Help: "Waiting tickets per pool after the last pairing pass.",
		}, []string{"pool"}),
		waited: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "matchmaking_wait_seconds",
			Help:    "How long a ticket waited until it was paired, per pool.",
			Buckets: []float64{1, 2, 5, 10, 20, 30, 60, 120, 300, 600},
		}, []string{"pool"}),
		gap: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Namespace: Namespace, Name: "matchmaking_level_gap_points",
			Help:    "Ladder score difference of the two players at pairing, per pool (100 points = one rank).",
			Buckets: []float64{0, 10, 25, 50, 75, 100, 150, 200, 300},
		}, []string{"pool"}),
	}
	r.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		r.requests, r.latency, r.accepted, r.refused, r.ratings,
		r.queue, r.waited, r.gap,
	)
	return r
}

// Handler serves the metrics in the Prometheus text format.
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.reg, promhttp.HandlerOpts{Registry: r.reg})
}

// ObserveRequest records one HTTP request. route is the pattern
// ("/api/v1/players/:username"), never the raw path, so label values stay
// few.
func (r *Registry) ObserveRequest(method, route string, status int, d time.Duration) {
	s := strconv.Itoa(status)
	r.requests.WithLabelValues(method, route, s).Inc()
	r.latency.WithLabelValues(method, route, s).Observe(d.Seconds())
}

// GameAccepted counts an accepted game.
func (r *Registry) GameAccepted() { r.accepted.Inc() }

// GameRefused counts a refused game; reason is a stable error code.
func (r *Registry) GameRefused(reason string) { r.refused.WithLabelValues(reason).Inc() }

// RatingUpdated counts an applied rating update.
func (r *Registry) RatingUpdated() { r.ratings.Inc() }

// QueueLength sets a pool's waiting count (matchmaking.Metrics).
func (r *Registry) QueueLength(pool string, waiting int) {
	r.queue.WithLabelValues(pool).Set(float64(waiting))
}

// Paired records how long one paired ticket waited (matchmaking.Metrics).
func (r *Registry) Paired(pool string, waited time.Duration) {
	r.waited.WithLabelValues(pool).Observe(waited.Seconds())
}

// LevelGap records the ladder gap of one pairing (matchmaking.Metrics).
func (r *Registry) LevelGap(pool string, gap int) {
	r.gap.WithLabelValues(pool).Observe(float64(gap))
}

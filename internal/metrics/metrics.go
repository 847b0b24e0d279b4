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
	}
	r.reg.MustRegister(
		collectors.NewGoCollector(),
		collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		r.requests, r.latency, r.accepted, r.refused, r.ratings,
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

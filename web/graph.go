package web

import (
	"fmt"
	"html"
	"html/template"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// graph is a profile's rank graph: the ladder score over time, the rank
// bands shaded and labelled, exams and placements marked.
type graph struct {
	SVG    template.HTML
	Points int
}

const (
	graphW, graphH = 600, 300
	graphLeft      = 76
	graphRight     = 12
	graphTop       = 12
	graphBottom    = 28
)

// graphPoint is one point of a rank graph: a score at a time, and the
// cause when it is a mark (an exam, a placement).
type graphPoint struct {
	at        time.Time
	score     int
	cause     string
	certified string
	// day is the day a series' point stands for (YYYY-MM-DD), its label
	// on the axis: a point placed at the end of its day (the first
	// instant of the next) would read as the next day.
	day string
}

// dayOf is the day the axis shows for p, in the page's zone loc.
func dayOf(p graphPoint, loc *time.Location) string {
	if p.day != "" {
		return p.day
	}
	return p.at.In(loc).Format("2006-01-02")
}

// sortPoints puts points in time order (marks after the day's point).
func sortPoints(pts []graphPoint) []graphPoint {
	slices.SortStableFunc(pts, func(a, b graphPoint) int { return a.at.Compare(b.at) })
	return pts
}

// drawGraph draws points in time order: the score line over the rank
// bands, shaded and labelled, with the marks; its days are those of the
// page's zone loc (a school's, the viewer's), as the rest of the page.
func drawGraph(lang string, loc *time.Location, pts []graphPoint) graph {
	if len(pts) == 0 {
		pts = []graphPoint{{}}
	}
	lo, hi := pts[0].score, pts[0].score
	for _, p := range pts {
		lo, hi = min(lo, p.score), max(hi, p.score)
	}
	// Whole rank bands around the line, at least three of them.
	lo = floorTo(lo-20, 100)
	hi = floorTo(hi+20, 100) + 100
	for hi-lo < 300 {
		lo -= 100
		if hi-lo < 300 {
			hi += 100
		}
	}
	first, last := pts[0].at, pts[len(pts)-1].at
	span := last.Sub(first)
	plotW := float64(graphW - graphLeft - graphRight)
	plotH := float64(graphH - graphTop - graphBottom)
	x := func(i int) float64 {
		if span <= 0 {
			if len(pts) == 1 {
				return graphLeft + plotW/2
			}
			return graphLeft + plotW*float64(i)/float64(len(pts)-1)
		}
		return graphLeft + plotW*float64(pts[i].at.Sub(first))/float64(span)
	}
	y := func(score int) float64 {
		return graphTop + plotH*float64(hi-score)/float64(hi-lo)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="graph" id="rank-graph" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="graph-title graph-desc">`, graphW, graphH, graphW, graphH)
	fmt.Fprintf(&b, `<title id="graph-title">%s</title><desc id="graph-desc">%s</desc>`,
		html.EscapeString(tr(lang, "graph.title")), html.EscapeString(tr(lang, "graph.desc", len(pts)-1)))
	for band := lo; band < hi; band += 100 {
		r := ranks.FromScore(band)
		fill := "#ffffff"
		if (band/100)%2 == 0 {
			fill = "#eef2f7"
		}
		fmt.Fprintf(&b, `<rect class="band" x="%d" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, graphLeft, y(band+100), plotW, y(band)-y(band+100), fill)
		label := rankText(lang, r)
		if band < -800 || band >= 900 {
			label = ""
		}
		fmt.Fprintf(&b, `<text class="band-label" x="%d" y="%.1f" font-size="15" text-anchor="end" fill="#333">%s</text>`, graphLeft-6, (y(band)+y(band+100))/2+4, html.EscapeString(label))
	}
	fmt.Fprintf(&b, `<rect x="%d" y="%d" width="%.1f" height="%.1f" fill="none" stroke="#999"/>`, graphLeft, graphTop, plotW, plotH)
	if len(pts) > 1 {
		b.WriteString(`<polyline class="score-line" fill="none" stroke="#0b4f8a" stroke-width="2" points="`)
		for i, p := range pts {
			fmt.Fprintf(&b, "%.1f,%.1f ", x(i), y(p.score))
		}
		b.WriteString(`"/>`)
	}
	for i, p := range pts {
		switch p.cause {
		case rating.CauseExam, rating.CausePlacement, rating.CauseRevocation, rating.CauseAdjustment:
			title := tr(lang, "cause."+p.cause) + " " + p.at.In(loc).Format("2006-01-02")
			if p.certified != "" {
				title += " → " + rankText(lang, p.certified)
			}
			cx, cy := x(i), y(p.score)
			fmt.Fprintf(&b, `<g class="mark mark-%s"><title>%s</title><path d="M%.1f %.1f l7 7 l-7 7 l-7 -7 z" fill="#b35900" stroke="#fff"/></g>`,
				p.cause, html.EscapeString(title), cx, cy-7)
		default:
			if i == len(pts)-1 || len(pts) < 60 {
				fmt.Fprintf(&b, `<circle cx="%.1f" cy="%.1f" r="2.5" fill="#0b4f8a"/>`, x(i), y(p.score))
			}
		}
	}
	if !first.IsZero() {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="13" fill="#333">%s</text>`, graphLeft, graphH-8, dayOf(pts[0], loc))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="13" text-anchor="end" fill="#333">%s</text>`, graphW-graphRight, graphH-8, dayOf(pts[len(pts)-1], loc))
	}
	b.WriteString(`</svg>`)
	return graph{SVG: template.HTML(b.String()), Points: len(pts) - 1} // every text above is escaped
}

func floorTo(n, step int) int {
	if n < 0 {
		return -((-n + step - 1) / step) * step
	}
	return n / step * step
}

// classLines draws one line per student (score over the days) over the
// rank bands, each line labelled by its student at its end in a legend
// below (the lines take a palette of distinguishable colours).
func classLines(lang string, series [][]graphPoint, names []string) template.HTML {
	lo, hi := 0, 0
	var first, last time.Time
	seen := false
	for _, pts := range series {
		for _, p := range pts {
			if !seen {
				lo, hi, first, last, seen = p.score, p.score, p.at, p.at, true
			}
			lo, hi = min(lo, p.score), max(hi, p.score)
			if p.at.Before(first) {
				first = p.at
			}
			if p.at.After(last) {
				last = p.at
			}
		}
	}
	lo = floorTo(lo-20, 100)
	hi = floorTo(hi+20, 100) + 100
	span := last.Sub(first)
	plotW := float64(graphW - graphLeft - graphRight)
	plotH := float64(graphH - graphTop - graphBottom)
	x := func(t time.Time) float64 {
		if span <= 0 {
			return graphLeft + plotW/2
		}
		return graphLeft + plotW*float64(t.Sub(first))/float64(span)
	}
	y := func(score int) float64 { return graphTop + plotH*float64(hi-score)/float64(hi-lo) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg class="graph" id="class-graph" viewBox="0 0 %d %d" width="%d" height="%d" role="img" aria-labelledby="class-graph-title">`, graphW, graphH, graphW, graphH)
	fmt.Fprintf(&b, `<title id="class-graph-title">%s</title>`, html.EscapeString(tr(lang, "progress.title")))
	for band := lo; band < hi; band += 100 {
		fill := "#ffffff"
		if (band/100)%2 == 0 {
			fill = "#eef2f7"
		}
		fmt.Fprintf(&b, `<rect x="%d" y="%.1f" width="%.1f" height="%.1f" fill="%s"/>`, graphLeft, y(band+100), plotW, y(band)-y(band+100), fill)
		if band >= -800 && band < 900 {
			fmt.Fprintf(&b, `<text x="%d" y="%.1f" font-size="15" text-anchor="end" fill="#333">%s</text>`, graphLeft-6, (y(band)+y(band+100))/2+4, html.EscapeString(rankText(lang, ranks.FromScore(band))))
		}
	}
	for i, pts := range series {
		if len(pts) == 0 {
			continue
		}
		colour := palette[i%len(palette)]
		fmt.Fprintf(&b, `<polyline fill="none" stroke="%s" stroke-width="2" points="`, colour)
		for _, p := range pts {
			fmt.Fprintf(&b, "%.1f,%.1f ", x(p.at), y(p.score))
		}
		fmt.Fprintf(&b, `"><title>%s</title></polyline>`, html.EscapeString(names[i]))
	}
	if seen {
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="13" fill="#333">%s</text>`, graphLeft, graphH-8, first.Format("2006-01-02"))
		fmt.Fprintf(&b, `<text x="%d" y="%d" font-size="13" text-anchor="end" fill="#333">%s</text>`, graphW-graphRight, graphH-8, last.Format("2006-01-02"))
	}
	b.WriteString(`</svg>`)
	return template.HTML(b.String()) // every text above is escaped
}

// palette: colours told apart on white and by most colour-blind viewers
// (Okabe–Ito).
var palette = []string{"#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442"}

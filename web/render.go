package web

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
)

// page is what every template sees: the request's language, caller and
// CSRF token (as methods), the title, and the page's own data.
type page struct {
	c     *ctx
	Title string // catalogue key
	Data  any
}

// T is the catalogue's text for key in the page's language; args fill
// its %s and %d.
func (p *page) T(key string, args ...any) string { return tr(p.c.lang, key, args...) }

// Lang is "zh" or "en".
func (p *page) Lang() string { return p.c.lang }

// Other is the language the switch offers.
func (p *page) Other() string {
	if p.c.lang == "zh" {
		return "en"
	}
	return "zh"
}

// User is the caller's username, "" when not logged in.
func (p *page) User() string {
	if !p.c.authed {
		return ""
	}
	return p.c.user.Username
}

// Role is the caller's role ("" when not logged in).
func (p *page) Role() string { return string(p.c.user.Role) }

func (p *page) IsTeacher() bool {
	return p.c.authed && p.c.user.Is(players.RoleTeacher, players.RoleAdmin)
}
func (p *page) IsAdmin() bool { return p.c.authed && p.c.user.Is(players.RoleAdmin) }
func (p *page) CanPlay() bool {
	return p.c.authed && p.c.user.Is(players.RolePlayer, players.RoleTeacher, players.RoleAdmin)
}

// CSRF is the token every form repeats.
func (p *page) CSRF() string { return p.c.csrf }

// Path is where the language switch comes back to: the request's path
// and query for a page read (GET); for a form's answer (a refusal shown
// at a POST's address, /account/name) the page it was sent from, since
// that address read with GET is no page (it was a 404 page).
func (p *page) Path() string {
	c := p.c
	switch {
	case c.back != "":
		return c.back
	case c.r.Method == http.MethodGet || c.r.Method == http.MethodHead:
		return withoutLang(c.r.URL)
	}
	return c.s.pageOf(c.r.URL.Path)
}

// withoutLang is u's path and query without ?lang=: left in, it would
// outweigh the language the switch has just chosen.
func withoutLang(u *url.URL) string {
	q := u.Query()
	if !q.Has("lang") {
		return u.RequestURI()
	}
	q.Del("lang")
	v := *u
	v.RawQuery = q.Encode()
	return v.RequestURI()
}

// pageOf is the nearest page at or above path (a form's address): the
// path with its last segments taken off until a GET route other than
// the catch-all answers it.
func (s *Server) pageOf(path string) string {
	for path != "" && path != "/" {
		r, err := http.NewRequest(http.MethodGet, path, nil)
		if err == nil {
			if _, pattern := s.mux.Handler(r); pattern != "" && pattern != "GET /" {
				return path
			}
		}
		path = path[:strings.LastIndexByte(path, '/')]
	}
	return "/"
}

// Rank writes a rank in the page's language: 5k / 3d / 9p in English,
// 5级 / 3段 / 职业九段 in Chinese. It takes a ranks.Rank or its text,
// with a trailing "?" while the rank is not settled.
func (p *page) Rank(v any) string { return rankText(p.c.lang, v) }

// Term is the catalogue's text for prefix+v (a role, a ruleset, a state
// a domain package names), v itself when the catalogue has none (a
// ruleset given by its parameters).
func (p *page) Term(prefix, v string) string { return termText(p.c.lang, prefix, v) }

func termText(lang, prefix, v string) string {
	if hasKey(lang, prefix+v) {
		return tr(lang, prefix+v)
	}
	return v
}

// knownTerm is termText for a value a link carries back (a notice): one
// the catalogue does not know shows as "?", never as the link's text.
func knownTerm(lang, prefix, v string) string {
	if hasKey(lang, prefix+v) {
		return tr(lang, prefix+v)
	}
	return "?"
}

// Result writes a game's result (B+R, W+2.5, Draw, Void) in the page's
// language; text it cannot read is shown as it is.
func (p *page) Result(s string) string { return resultText(p.c.lang, s) }

func resultText(lang, s string) string {
	r, ok, err := games.ParseResult(s)
	if err != nil || !ok {
		return s
	}
	switch {
	case r.End == games.EndVoid:
		return tr(lang, "res.void")
	case r.IsDraw():
		return tr(lang, "res.draw")
	case r.Winner != games.Black && r.Winner != games.White:
		return s
	}
	who := tr(lang, "colour.black")
	if r.Winner == games.White {
		who = tr(lang, "colour.white")
	}
	switch r.End {
	case games.EndScore:
		if r.NoMargin {
			return tr(lang, "res.win", who)
		}
		return tr(lang, "res.score", who, strconv.FormatFloat(r.Margin, 'f', -1, 64))
	case games.EndResign, games.EndTime, games.EndForfeit, games.EndEscape:
		return tr(lang, "res."+string(r.End), who)
	}
	return tr(lang, "res.win", who)
}

// Date writes an instant in the viewer's time zone.
func (p *page) Date(t time.Time) string { return dateText(t, p.c.zone()) }

// Day writes an instant's day.
func (p *page) Day(t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(p.c.zone()).Format("2006-01-02")
}

func rankText(lang string, v any) string {
	var r ranks.Rank
	suffix := ""
	switch x := v.(type) {
	case ranks.Rank:
		r = x
	case string:
		if x == "" {
			return "—"
		}
		if strings.HasSuffix(x, "?") {
			x, suffix = strings.TrimSuffix(x, "?"), "?"
		}
		var err error
		if r, err = ranks.Parse(x); err != nil {
			return x + suffix
		}
	default:
		return fmt.Sprint(v)
	}
	if r.IsZero() {
		return "—"
	}
	if lang != "zh" {
		return r.String() + suffix
	}
	return r.Chinese() + suffix
}

func dateText(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "—"
	}
	return t.In(loc).Format("2006-01-02 15:04 MST")
}

// zone is the page's time zone: a school's on its class pages, else the
// viewer's from the tz cookie the page's script sets, UTC until then.
func (c *ctx) zone() *time.Location {
	if c.loc != nil {
		return c.loc
	}
	if ck, err := c.r.Cookie("rank_tz"); err == nil && ck.Value != "" && len(ck.Value) < 64 {
		if loc, err := time.LoadLocation(ck.Value); err == nil {
			return loc
		}
	}
	return time.UTC
}

// render writes the page name with status; title is a catalogue key.
func (c *ctx) render(status int, name, title string, data any) {
	t, ok := c.s.pages[name]
	if !ok {
		http.Error(c.w, "no page "+name+" / 没有页面 "+name, http.StatusInternalServerError)
		return
	}
	var buf bytes.Buffer
	if err := t.ExecuteTemplate(&buf, "layout", &page{c: c, Title: title, Data: data}); err != nil {
		c.s.log.ErrorContext(c.r.Context(), "render", "page", name, "err", err)
		http.Error(c.w, "internal error / 服务器出错了", http.StatusInternalServerError)
		return
	}
	c.w.Header().Set("Content-Type", "text/html; charset=utf-8")
	c.w.Header().Set("Cache-Control", "no-store")
	c.w.WriteHeader(status)
	_, _ = c.w.Write(buf.Bytes())
}

// funcs are the templates' helpers besides the page's methods.
var funcs = template.FuncMap{
	"add":  func(a, b int) int { return a + b },
	"path": url.PathEscape,
	"signed": func(n int) string {
		if n > 0 {
			return "+" + strconv.Itoa(n)
		}
		return strconv.Itoa(n)
	},
	"f0": func(f float64) string { return strconv.FormatFloat(f, 'f', 0, 64) },
	"f1": func(f float64) string { return strconv.FormatFloat(f, 'f', 1, 64) },
	"query": func(kv ...string) string {
		v := url.Values{}
		for i := 0; i+1 < len(kv); i += 2 {
			if kv[i+1] != "" {
				v.Set(kv[i], kv[i+1])
			}
		}
		if len(v) == 0 {
			return ""
		}
		return "?" + v.Encode()
	},
}

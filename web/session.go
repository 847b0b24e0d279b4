package web

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/players"
)

// The cookies of the pages.
const (
	// sessionCookie holds the bearer token of the players' token store:
	// the same tokens the API takes, so logging out revokes it for both.
	sessionCookie = "rank_session"
	// csrfCookie holds the CSRF secret every form and state-changing
	// request repeats (field csrf or header X-CSRF-Token): a page of
	// another site can neither read it nor set it.
	csrfCookie = "rank_csrf"
	langCookie = "rank_lang"
)

// handler is one page: it writes the answer or returns the error to show.
type handler func(c *ctx) error

// ctx is one request as the pages see it.
type ctx struct {
	s      *Server
	w      http.ResponseWriter
	r      *http.Request
	lang   string
	user   players.Principal
	authed bool
	secret string // the session token
	csrf   string
	loc    *time.Location // the page's time zone when not the viewer's (a school's)
	back   string         // where the language switch returns when not the request's page ("" for it)
}

func randomToken() string {
	b := make([]byte, 24)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// wrap reads the language, the session and the CSRF secret, refuses a
// state-changing request without the CSRF token (403), sends a caller
// not logged in to the login page and refuses a caller without one of
// the roles (403 page), then runs f and shows its error.
func (s *Server) wrap(roles []players.Role, f handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c := &ctx{s: s, w: w, r: r}
		c.lang = chooseLang(r)
		if ck, err := r.Cookie(csrfCookie); err == nil && len(ck.Value) >= 16 {
			c.csrf = ck.Value
		} else {
			c.csrf = randomToken()
			c.setCookie(csrfCookie, c.csrf, 0)
		}
		if ck, err := r.Cookie(sessionCookie); err == nil && ck.Value != "" {
			p, err := s.d.Players.Authenticate(r.Context(), ck.Value)
			switch {
			case err == nil:
				c.user, c.authed, c.secret = p, true, ck.Value
			case errors.Is(err, players.ErrUnauthenticated):
				c.setCookie(sessionCookie, "", -1) // expired or revoked: forget it
			default:
				c.fail(err)
				return
			}
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !c.csrfOK() {
			c.fail(&pageError{status: http.StatusForbidden, key: "err.csrf"})
			return
		}
		if roles != nil {
			if !c.authed {
				if r.Method == http.MethodGet {
					to := "/login?next=" + url.QueryEscape(r.URL.RequestURI())
					if l := r.URL.Query().Get("lang"); l == "zh" || l == "en" {
						to += "&lang=" + l // the login page in the language asked for
					}
					http.Redirect(w, r, to, http.StatusSeeOther)
					return
				}
				c.fail(&pageError{status: http.StatusUnauthorized, key: "err.login_needed"})
				return
			}
			if !slices.Contains(roles, c.user.Role) {
				c.fail(errForbidden)
				return
			}
		}
		if err := f(c); err != nil {
			c.fail(err)
		}
	})
}

// csrfOK: the request repeats the CSRF cookie's secret.
func (c *ctx) csrfOK() bool {
	ck, err := c.r.Cookie(csrfCookie)
	if err != nil || ck.Value == "" {
		return false
	}
	got := c.r.Header.Get("X-CSRF-Token")
	if got == "" {
		got = c.r.PostFormValue("csrf")
	}
	return got != "" && subtle.ConstantTimeCompare([]byte(got), []byte(ck.Value)) == 1
}

// setCookie sets an HttpOnly, SameSite=Lax cookie of the whole site
// (Secure when the operator says so); maxAge 0 is a browser session,
// negative deletes it.
func (c *ctx) setCookie(name, value string, maxAge int) {
	http.SetCookie(c.w, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: c.s.d.Config.SecureCookies})
}

// redirect sends the browser on after a form (303: the next request is a
// GET).
func (c *ctx) redirect(to string) error {
	http.Redirect(c.w, c.r, to, http.StatusSeeOther)
	return nil
}

// localPath keeps a "next" or "back" target on this site.
func localPath(p string) string {
	if !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") {
		return "/"
	}
	return p
}

// clientIP is the caller's address: the peer's, or, when the peer is a
// trusted proxy, the last address of X-Forwarded-For that is not one.
func (c *ctx) clientIP() string {
	host := c.r.RemoteAddr
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if !c.s.trusted(host) {
		return host
	}
	hops := strings.Split(c.r.Header.Get("X-Forwarded-For"), ",")
	for i := len(hops) - 1; i >= 0; i-- {
		h := strings.TrimSpace(hops[i])
		if h == "" {
			continue
		}
		if !c.s.trusted(h) {
			return h
		}
		host = h
	}
	return host
}

func (s *Server) trusted(ip string) bool {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return false
	}
	a = a.Unmap()
	for _, p := range s.proxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

type authData struct {
	Next     string
	Username string
	Error    string // catalogue key
	Detail   string
}

func (s *Server) loginPage(c *ctx) error {
	c.render(http.StatusOK, "login", "login.title", authData{Next: localPath(c.r.URL.Query().Get("next"))})
	return nil
}

func (s *Server) registerPage(c *ctx) error {
	c.render(http.StatusOK, "register", "register.title", authData{Next: localPath(c.r.URL.Query().Get("next"))})
	return nil
}

// formError shows a form again with the refusal's text (status as the
// API would answer).
func (c *ctx) formError(page, title string, d authData, err error) error {
	status, key, detail, _ := c.classified(err)
	d.Error = key
	if status < 500 {
		d.Detail = detail
	}
	c.render(status, page, title, d)
	return nil
}

func (s *Server) loginPost(c *ctx) error {
	d := authData{Next: localPath(c.r.PostFormValue("next")), Username: c.r.PostFormValue("username")}
	tok, err := s.d.Players.Login(c.r.Context(), d.Username, c.r.PostFormValue("password"), c.clientIP())
	if err != nil {
		return c.formError("login", "login.title", d, err)
	}
	c.setCookie(sessionCookie, tok.Secret, int(s.d.Players.TokenTTL().Seconds()))
	return c.redirect(d.Next)
}

func (s *Server) registerPost(c *ctx) error {
	d := authData{Next: localPath(c.r.PostFormValue("next")), Username: c.r.PostFormValue("username")}
	if c.r.PostFormValue("password") != c.r.PostFormValue("password2") {
		d.Error = "register.mismatch"
		c.render(http.StatusUnprocessableEntity, "register", "register.title", d)
		return nil
	}
	a, tok, err := s.d.Players.Register(c.r.Context(), d.Username, c.r.PostFormValue("password"), c.clientIP())
	if err != nil {
		return c.formError("register", "register.title", d, err)
	}
	c.setCookie(sessionCookie, tok.Secret, int(s.d.Players.TokenTTL().Seconds()))
	if d.Next == "/" {
		d.Next = "/players/" + url.PathEscape(a.Username)
	}
	return c.redirect(d.Next)
}

func (s *Server) logoutPost(c *ctx) error {
	if err := s.d.Players.Logout(c.r.Context(), c.secret); err != nil && !errors.Is(err, players.ErrUnauthenticated) {
		return err
	}
	c.setCookie(sessionCookie, "", -1)
	return c.redirect("/")
}

func (s *Server) setLang(c *ctx) error {
	if l := c.r.PostFormValue("lang"); l == "zh" || l == "en" {
		c.setCookie(langCookie, l, 365*24*3600)
	}
	return c.redirect(localPath(c.r.PostFormValue("back")))
}

package web

import (
	"net/http"

	"github.com/weiqi-platform/rank/players"
)

type accountData struct {
	Account players.Account
	Notice  string // catalogue key
	Error   string // catalogue key
	Detail  string
	Field   string // the form the error is about: "password" or "name"
}

func (s *Server) accountData(c *ctx) (accountData, error) {
	a, err := s.d.Players.Account(c.r.Context(), c.user.Username)
	return accountData{Account: a}, err
}

func (s *Server) accountPage(c *ctx) error {
	d, err := s.accountData(c)
	if err != nil {
		return err
	}
	switch c.r.URL.Query().Get("done") {
	case "password":
		d.Notice = "account.password_changed"
	case "name":
		d.Notice = "account.name_changed"
	}
	c.render(http.StatusOK, "account", "account.title", d)
	return nil
}

// accountRefused shows the account page again with the refusal.
func (s *Server) accountRefused(c *ctx, field string, err error) error {
	status, key, detail, _ := c.classified(err)
	if status >= 500 {
		return err
	}
	d, derr := s.accountData(c)
	if derr != nil {
		return derr
	}
	d.Field, d.Error, d.Detail = field, key, detail
	if field == "name" {
		// The name as typed, to mend, not the one kept before.
		d.Account.DisplayName = c.r.PostFormValue("display_name")
	}
	c.render(status, "account", "account.title", d)
	return nil
}

// accountPassword changes the password: every token of the account is
// revoked (other browsers are logged out) and this browser gets the new
// one.
func (s *Server) accountPassword(c *ctx) error {
	f := c.r.PostForm
	if f.Get("new_password") != f.Get("new_password2") {
		d, err := s.accountData(c)
		if err != nil {
			return err
		}
		d.Field, d.Error = "password", "register.mismatch"
		c.render(http.StatusUnprocessableEntity, "account", "account.title", d)
		return nil
	}
	tok, err := s.d.Players.ChangePassword(c.r.Context(), c.user.Username, f.Get("current_password"), f.Get("new_password"))
	if err != nil {
		return s.accountRefused(c, "password", err)
	}
	c.setCookie(sessionCookie, tok.Secret, int(s.d.Players.TokenTTL().Seconds()))
	return c.redirect("/account?done=password")
}

func (s *Server) accountName(c *ctx) error {
	if _, err := s.d.Players.SetDisplayName(c.r.Context(), c.user.Username, c.r.PostFormValue("display_name")); err != nil {
		return s.accountRefused(c, "name", err)
	}
	return c.redirect("/account?done=name")
}

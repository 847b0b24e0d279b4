package api

import (
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/players"
)

type credentials struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

type newAccount struct {
	Username string `json:"username"`
	Password string `json:"password"`
	Role     string `json:"role"`
}

// accountJSON is an account as the API shows it: never the hash.
type accountJSON struct {
	Username  string    `json:"username"`
	Role      string    `json:"role"`
	CreatedAt time.Time `json:"created_at"`
	CreatedBy string    `json:"created_by,omitempty"`
}

func toAccountJSON(a players.Account) accountJSON {
	return accountJSON{Username: a.Username, Role: string(a.Role), CreatedAt: a.CreatedAt.UTC(), CreatedBy: a.CreatedBy}
}

type tokenJSON struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expires_at"`
}

type registered struct {
	Player    accountJSON `json:"player"`
	Token     string      `json:"token"`
	ExpiresAt time.Time   `json:"expires_at"`
}

type created struct {
	Account accountJSON `json:"account"`
}

// credentialsOf reads {username, password}; on false it has answered.
func (s *Server) credentialsOf(c *gin.Context) (credentials, bool) {
	var in credentials
	err := decodeJSON(c, &in)
	if err == nil {
		err = requireFields("username", in.Username, "password", in.Password)
	}
	if err != nil {
		s.fail(c, err)
		return credentials{}, false
	}
	return in, true
}

func (s *Server) register(c *gin.Context) {
	in, ok := s.credentialsOf(c)
	if !ok {
		return
	}
	a, tok, err := s.deps.Players.Register(c.Request.Context(), in.Username, in.Password, c.ClientIP())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, registered{Player: toAccountJSON(a), Token: tok.Secret, ExpiresAt: tok.ExpiresAt.UTC()})
}

func (s *Server) login(c *gin.Context) {
	in, ok := s.credentialsOf(c)
	if !ok {
		return
	}
	tok, err := s.deps.Players.Login(c.Request.Context(), in.Username, in.Password, c.ClientIP())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, tokenJSON{Token: tok.Secret, ExpiresAt: tok.ExpiresAt.UTC()})
}

func (s *Server) logout(c *gin.Context) {
	if err := s.deps.Players.Logout(c.Request.Context(), c.GetString(keyToken)); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

func (s *Server) createAccount(c *gin.Context) {
	var in newAccount
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	if err := requireFields("username", in.Username, "password", in.Password, "role", in.Role); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	a, err := s.deps.Players.CreateAccount(c.Request.Context(), by, in.Username, in.Password, players.Role(in.Role))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, created{Account: toAccountJSON(a)})
}

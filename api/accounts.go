package api

import (
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/players"
)

// listedAccountJSON is one account of the admin's list: never the hash.
type listedAccountJSON struct {
	Username    string    `json:"username"`
	DisplayName string    `json:"display_name,omitempty"`
	Role        string    `json:"role"`
	CreatedAt   time.Time `json:"created_at"`
	CreatedBy   string    `json:"created_by,omitempty"`
	ManagedBy   string    `json:"managed_by,omitempty"` // the school managing the account
}

// listAccounts: GET /admin/accounts?role=&prefix=&limit=&cursor= — the
// accounts in username order, of one role or all, whose username starts
// with prefix.
func (s *Server) listAccounts(c *gin.Context) {
	var cur listCursor
	limit, _, err := PageParams(c, &cur)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	// One row more than the page says whether another page follows.
	q := players.AccountQuery{After: cur.After, Role: players.Role(c.Query("role")), Prefix: c.Query("prefix"), Limit: limit + 1}
	rows, err := s.deps.Players.Accounts(c.Request.Context(), by, q)
	var fe *players.FieldError
	if errors.As(err, &fe) {
		err = badParam(fe.Field, fe.Field+" "+fe.Reason)
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := pageOf(rows, limit, func(a players.Account) listedAccountJSON {
		return listedAccountJSON{Username: a.Username, DisplayName: a.DisplayName, Role: string(a.Role), CreatedAt: a.CreatedAt.UTC(),
			CreatedBy: a.CreatedBy, ManagedBy: a.ManagedBy}
	}, func(a players.Account) any { return listCursor{After: a.Username} })
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

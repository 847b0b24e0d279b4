package api

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/players"
)

// Decided bounds of what the address carries, checked for every route
// before its handler (each handler then checks its own parameters'
// meaning): a path parameter is an id or a username, so at most
// MaxPathParam bytes, and so is a query parameter's name; a query value
// at most MaxQueryValue bytes (a reason of rating.MaxReason characters
// fits); at most MaxQueryValues values in all. Text must be UTF-8
// without control characters; a query value may hold line breaks and
// tabs (a reason).
const (
	MaxPathParam   = 256
	MaxQueryValue  = 4096
	MaxQueryValues = 64
)

// checkParams refuses an address past those bounds with 400
// invalid_parameter naming the parameter and the limit; it changes
// nothing.
func (s *Server) checkParams(c *gin.Context) {
	for _, p := range c.Params {
		if err := paramText(p.Key, p.Value, MaxPathParam, false); err != nil {
			s.fail(c, err)
			return
		}
	}
	n := 0
	for k, vs := range c.Request.URL.Query() {
		n += len(vs)
		if n > MaxQueryValues {
			s.fail(c, badParam("query", fmt.Sprintf("the address has more than %d query values", MaxQueryValues)))
			return
		}
		if err := paramText(k, k, MaxPathParam, false); err != nil {
			s.fail(c, err)
			return
		}
		for _, v := range vs {
			if err := paramText(k, v, MaxQueryValue, true); err != nil {
				s.fail(c, err)
				return
			}
		}
	}
	c.Next()
}

// paramText checks one name or value; breaks allows line breaks and tabs.
func paramText(name, v string, limit int, breaks bool) error {
	switch {
	case len(v) > limit:
		return badParam(name, fmt.Sprintf("%s is %d bytes, longer than the limit of %d", name, len(v), limit))
	case !utf8.ValidString(v):
		return badParam(name, name+" is not UTF-8 text")
	case strings.IndexFunc(v, func(r rune) bool { return unicode.IsControl(r) && !(breaks && (r == '\n' || r == '\t' || r == '\r')) }) >= 0:
		return badParam(name, name+" holds a control character")
	}
	return nil
}

// queryUsername reads the query parameter name as a username (its normal
// form), "" when absent; a malformed one is 400 invalid_parameter.
func queryUsername(c *gin.Context, name string) (string, error) {
	v := c.Query(name)
	if v == "" {
		return "", nil
	}
	u, err := players.NormalizeUsername(v)
	if err != nil {
		var fe *players.FieldError
		if errors.As(err, &fe) {
			return "", badParam(name, name+" "+fe.Reason)
		}
		return "", badParam(name, name+" is not a username")
	}
	return u, nil
}

// bodyUsername reads a username a body names in field (its normal form):
// "" is 400 missing_field, a malformed one 422 invalid_field naming the
// field, so that what is not a username is never looked up nor echoed
// back whole in a "no player" answer.
func bodyUsername(field, v string) (string, error) {
	if err := requireFields(field, trimmed(v)); err != nil {
		return "", err
	}
	u, err := players.NormalizeUsername(v)
	var fe *players.FieldError
	if errors.As(err, &fe) {
		return "", &players.FieldError{Field: field, Reason: fe.Reason}
	}
	return u, err
}

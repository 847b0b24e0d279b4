package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
)

// Paging of every list, decided (api.md): ?limit= defaults to 50, at most
// 500; ?cursor= is opaque to clients and names where the next page starts.
const (
	DefaultLimit = 50
	MaxLimit     = 500
)

// List is the answer of every list route. NextCursor is absent on the last
// page.
type List[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"next_cursor,omitempty"`
}

// NewList builds a page; items is never shown as null.
func NewList[T any](items []T, next string) List[T] {
	if items == nil {
		items = []T{}
	}
	return List[T]{Items: items, NextCursor: next}
}

// EncodeCursor turns a position (a small struct of the route's sort keys)
// into an opaque cursor.
func EncodeCursor(pos any) (string, error) {
	b, err := json.Marshal(pos)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// DecodeCursor reads a cursor made by EncodeCursor into pos; a cursor not
// made by it is a 400 invalid_cursor.
func DecodeCursor(cursor string, pos any) error {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err == nil {
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		err = dec.Decode(pos)
		if err == nil {
			if _, tail := dec.Token(); tail != io.EOF {
				err = errors.New("trailing data")
			}
		}
	}
	if err != nil {
		return &Error{Status: http.StatusBadRequest, Code: "invalid_cursor", Message: "the cursor is not one this server gave out", Details: map[string]any{"parameter": "cursor"}}
	}
	return nil
}

// PageParams reads ?limit= and ?cursor=. pos receives the decoded cursor;
// hasCursor is false on the first page.
func PageParams(c *gin.Context, pos any) (limit int, hasCursor bool, err error) {
	limit = DefaultLimit
	if v, ok := c.GetQuery("limit"); ok {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > MaxLimit {
			return 0, false, &Error{Status: http.StatusBadRequest, Code: "invalid_parameter",
				Message: "limit must be a whole number from 1 to " + strconv.Itoa(MaxLimit) + ", got " + strconv.Quote(v),
				Details: map[string]any{"parameter": "limit"}}
		}
		limit = n
	}
	if v, ok := c.GetQuery("cursor"); ok && v != "" {
		if err := DecodeCursor(v, pos); err != nil {
			return 0, false, err
		}
		hasCursor = true
	}
	return limit, hasCursor, nil
}

// pageOf turns up to limit+1 rows read into a page of at most limit
// items, with the cursor of its last row when there are more.
func pageOf[R, T any](rows []R, limit int, item func(R) T, cursor func(R) any) (List[T], error) {
	next := ""
	if len(rows) > limit {
		rows = rows[:limit]
		var err error
		if next, err = EncodeCursor(cursor(rows[limit-1])); err != nil {
			return List[T]{}, err
		}
	}
	items := make([]T, len(rows))
	for i, r := range rows {
		items[i] = item(r)
	}
	return NewList(items, next), nil
}

// listCursor is where the next page of an in-memory list starts: after
// the item with this key.
type listCursor struct {
	After string `json:"a"`
}

// pageAfter pages items: up to limit after the cursor's item, and the
// cursor of the next page.
func pageAfter[T, J any](c *gin.Context, items []T, key func(T) string, show func(T) J) (List[J], error) {
	var cur listCursor
	limit, has, err := PageParams(c, &cur)
	if err != nil {
		return List[J]{}, err
	}
	if has {
		i := slices.IndexFunc(items, func(x T) bool { return key(x) == cur.After })
		if i < 0 {
			// The item left the list (a promotion decided as its page was
			// read). A list in its keys' order goes on after where the key
			// stood, so a client may decide as it pages; another says so,
			// rather than start over and hand a client's loop the first
			// page again.
			byKey := func(a, b T) int { return strings.Compare(key(a), key(b)) }
			if !slices.IsSortedFunc(items, byKey) {
				return List[J]{}, &Error{Status: http.StatusBadRequest, Code: "invalid_cursor",
					Message: "the list changed: the item the cursor follows is no longer in it; start again from the first page",
					Details: map[string]any{"parameter": "cursor"}}
			}
			i = sort.Search(len(items), func(j int) bool { return key(items[j]) > cur.After }) - 1
		}
		items = items[i+1:]
	}
	return pageOf(items, limit, show, func(x T) any { return listCursor{After: key(x)} })
}

// answerList answers a whole list read by a service (or its error) as
// one page of it, after the cursor's key: the one shape of the list
// routes whose service returns every item.
func answerList[T, J any](s *Server, c *gin.Context, items []T, err error, key func(T) string, show func(T) J) {
	if err == nil {
		var page List[J]
		if page, err = pageAfter(c, items, key, show); err == nil {
			c.JSON(http.StatusOK, page)
			return
		}
	}
	s.fail(c, err)
}

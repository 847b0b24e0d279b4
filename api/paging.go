package api

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"

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

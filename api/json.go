package api

import (
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/gin-gonic/gin"
)

// decodeJSON reads the body as one JSON object into v, refusing unknown
// fields and trailing data, with errors that say what is wrong. The
// Content-Type is not checked: `curl -d` sends a form type for JSON.
func decodeJSON(c *gin.Context, v any) error {
	if err := jsonContentType(c, "application/json"); err != nil {
		return err
	}
	dec := json.NewDecoder(c.Request.Body)
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, err := dec.Token(); err != io.EOF {
			return badJSON("the body holds more than one JSON value", map[string]any{"offset": dec.InputOffset()})
		}
		return nil
	}
	var mbe *http.MaxBytesError
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &mbe):
		return err
	case errors.Is(err, io.EOF):
		return badJSON("the request body is empty; send a JSON object", nil)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badJSON("the JSON body ends too early", nil)
	case errors.As(err, &syn):
		return badJSON("malformed JSON at byte "+strconv.FormatInt(syn.Offset, 10)+": "+syn.Error(), map[string]any{"offset": syn.Offset})
	case errors.As(err, &typ):
		field := typ.Field
		if field == "" {
			return badJSON("the body must be a JSON object", nil)
		}
		return &Error{Status: http.StatusBadRequest, Code: "invalid_json",
			Message: "field " + field + " must be " + jsonKind(typ.Type.Kind().String()) + ", not " + typ.Value,
			Details: map[string]any{"field": field}}
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		field := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
		return &Error{Status: http.StatusBadRequest, Code: "unknown_field", Message: "unknown field " + field, Details: map[string]any{"field": field}}
	}
	return badJSON("malformed JSON: "+err.Error(), nil)
}

func badJSON(msg string, details map[string]any) error {
	return &Error{Status: http.StatusBadRequest, Code: "invalid_json", Message: msg, Details: details}
}

// requireFields answers 400 missing_field for the first empty one, in the
// order given (name, value pairs).
func requireFields(pairs ...string) error {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] == "" {
			return &Error{Status: http.StatusBadRequest, Code: "missing_field", Message: "field " + pairs[i] + " is required", Details: map[string]any{"field": pairs[i]}}
		}
	}
	return nil
}

func jsonKind(goKind string) string {
	switch goKind {
	case "string":
		return "a string"
	case "int", "int64", "int32", "uint", "uint64", "uint32", "float64", "float32":
		return "a number"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "an array"
	}
	return "an object"
}

func trimmed(s string) string { return strings.TrimSpace(s) }

func joinQuoted(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

func badParam(param, msg string) error {
	return &Error{Status: http.StatusBadRequest, Code: "invalid_parameter", Message: msg, Details: map[string]any{"parameter": param}}
}

// jsonContentType refuses a body whose Content-Type is neither JSON nor
// none (415 naming the type and what the route takes), before the body is
// read as JSON: the fault is the type, not a "malformed JSON" at byte 1.
// application/x-www-form-urlencoded is read as JSON too: it is what
// curl -d sends by default (decided, for the README's commands).
func jsonContentType(c *gin.Context, takes string) error {
	ct := c.GetHeader("Content-Type")
	if ct == "" {
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	switch {
	case err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json") || mt == "application/x-www-form-urlencoded"):
		return nil
	case err != nil:
		mt = ct
	}
	return &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
		Message: "content type " + strconv.Quote(mt) + " is not taken here; send " + takes,
		Details: map[string]any{"content_type": mt, "takes": takes}}
}

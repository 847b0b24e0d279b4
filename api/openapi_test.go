package api

import (
	"bytes"
	"context"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/weiqi-platform/rank/intake"
)

// TestOpenAPICoversRoutes: the document validates, documents every
// registered route, and documents no route that is not registered.
func TestOpenAPICoversRoutes(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		t.Fatal(err)
	}
	if err := doc.Validate(context.Background()); err != nil {
		t.Fatalf("openapi.json does not validate: %v", err)
	}
	s, _ := newBare(t)
	param := regexp.MustCompile(`:([A-Za-z_]+)`)
	registered := map[string]bool{}
	for _, r := range s.Routes() {
		path := param.ReplaceAllString(r.Path, "{$1}")
		key := r.Method + " " + path
		registered[key] = true
		item := doc.Paths.Value(path)
		if item == nil || item.GetOperation(r.Method) == nil {
			t.Errorf("route %s is not in openapi.json", key)
		}
	}
	for path, item := range doc.Paths.Map() {
		for method := range item.Operations() {
			if !registered[method+" "+path] {
				t.Errorf("openapi.json documents %s %s, which is not registered", method, path)
			}
		}
	}
}

func TestOpenAPIServedAsEmbedded(t *testing.T) {
	s, _ := newBare(t)
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/v1/openapi.json", nil))
	if rec.Code != 200 || !strings.HasPrefix(rec.Header().Get("Content-Type"), "application/json") || !bytes.Equal(rec.Body.Bytes(), openAPIDoc) {
		t.Fatalf("GET /api/v1/openapi.json = %d %s", rec.Code, rec.Header().Get("Content-Type"))
	}
}

// TestOpenAPIAssumptionBounds: the document states intake's bounds on a
// game's assumptions.
func TestOpenAPIAssumptionBounds(t *testing.T) {
	doc, err := openapi3.NewLoader().LoadFromData(openAPIDoc)
	if err != nil {
		t.Fatal(err)
	}
	s := doc.Components.Schemas["Game"].Value.Properties["assumptions"].Value
	if s.MaxItems == nil || *s.MaxItems != intake.MaxAssumptions || s.Items.Value.MaxLength == nil || *s.Items.Value.MaxLength != intake.MaxAssumptionText {
		t.Fatalf("assumptions schema maxItems %v, maxLength %v; want %d and %d", s.MaxItems, s.Items.Value.MaxLength, intake.MaxAssumptions, intake.MaxAssumptionText)
	}
}

package api

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPIDoc is the OpenAPI 3 document of every route, served as written.
// TestOpenAPICoversRoutes fails when a registered route is missing from it
// (or it lists one that is not registered) or when it does not validate.
//
//go:embed openapi.json
var openAPIDoc []byte

// OpenAPI returns the embedded OpenAPI document.
func OpenAPI() []byte { return openAPIDoc }

func (s *Server) openapi(c *gin.Context) {
	c.Data(http.StatusOK, "application/json", openAPIDoc)
}

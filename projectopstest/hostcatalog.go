package projectopstest

import (
	"net/http"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

func hostCatalogRoutes(s *Server, rt *router) {
	rt.handlePublic("GET /host-catalog", func(w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
		c, source, cache := s.catalog.Serve()
		w.Header().Set("Cache-Control", cache)
		edge.WriteRaw(w, http.StatusOK, c.Envelope(source))
		return nil
	})
}

package projectopstest

import (
	"net/http"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

func hostCatalogRoutes(s *Server, rt *router) {
	rt.handlePublic("GET /host-catalog", func(w http.ResponseWriter, r *http.Request, _ actor) *edge.Error {
		c, source, cache, err := s.catalog.Serve(r.Context())
		if err != nil { // the caller left during a refresh
			return edge.NewError(shared.CodeTimeout, "The request ended before the host catalog was fetched", nil)
		}
		w.Header().Set("Cache-Control", cache)
		edge.WriteRaw(w, http.StatusOK, c.Envelope(source))
		return nil
	})
}

package projectopstest

import (
	"context"
	"crypto/sha256"
	_ "embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"

	"github.com/projectops/projectops-go/catalog"
)

// bundledCatalogJSON is the double's built-in host-compatibility snapshot:
// one entry per built-in host template, each with its display facts and the
// creation fields (modelId, hostContext) a template seeds a config from.
//
//go:embed data/host-catalog.json
var bundledCatalogJSON []byte

// bundledCatalog parses the snapshot once. The envelope fields are fixed to
// what the real service sends for its fallback: source "bundled", version 0,
// empty contentHash, publishedAt 0.
var bundledCatalog = sync.OnceValue(func() catalog.HostCatalog {
	var c catalog.HostCatalog
	if err := json.Unmarshal(bundledCatalogJSON, &c); err != nil {
		panic("projectopstest: bundled host catalog is invalid: " + err.Error())
	}
	c.SchemaVersion, c.Version, c.ContentHash, c.PublishedAt = 2, 0, "", 0
	c.Source = catalog.SourceBundled
	return c
})

func (s *Server) hostCatalogRoutes() {
	s.handlePublic("GET /host-catalog", func(w http.ResponseWriter, r *http.Request, _ actor) *httpError {
		writeJSON(w, http.StatusOK, s.hostCatalog(r.Context()))
		return nil
	})
}

// hostCatalog returns the live catalog when a source is configured and
// answers usably, else the bundled snapshot: it always returns a catalog.
func (s *Server) hostCatalog(ctx context.Context) catalog.HostCatalog {
	if s.src != nil {
		c, err := s.liveCatalog(ctx)
		if err == nil {
			return c
		}
		s.log.Warn("projectopstest: live host catalog unavailable, serving bundled snapshot", "err", err)
	}
	return bundledCatalog()
}

func (s *Server) liveCatalog(ctx context.Context) (catalog.HostCatalog, error) {
	var c catalog.HostCatalog
	b, err := s.src(ctx)
	if err != nil {
		return c, err
	}
	if err := json.Unmarshal(b, &c); err != nil {
		return c, fmt.Errorf("decode live catalog: %w", err)
	}
	if len(c.Catalog.HostsByID) == 0 {
		return c, errors.New("live catalog has no hosts")
	}
	if c.SchemaVersion == 0 {
		c.SchemaVersion = 2
	}
	if c.ContentHash == "" {
		canon, err := json.Marshal(c.Catalog)
		if err != nil {
			return c, err
		}
		sum := sha256.Sum256(canon)
		c.ContentHash = hex.EncodeToString(sum[:])
	}
	c.Source = catalog.SourceLive
	return c, nil
}

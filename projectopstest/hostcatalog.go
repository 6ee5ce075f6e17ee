package projectopstest

import (
	"context"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/projectops/projectops-go/projectopstest/internal/hostcfg"
)

// Host catalog timings of the service's gateway (reference notes,
// "GET /host-catalog in the gateway").
const (
	catalogTTL          = 300 * time.Second
	catalogFetchTimeout = 6500 * time.Millisecond
)

// catalogCache is the gateway's in-memory cache of the last good live
// catalog; refreshes are shared by concurrent requests.
type catalogCache struct {
	s       *Server
	mu      sync.Mutex
	live    *hostcfg.Catalog
	fetched time.Time
	group   singleflight.Group
}

func hostCatalogRoutes(s *Server, rt *router) {
	rt.handlePublic("GET /host-catalog", func(w http.ResponseWriter, r *http.Request, _ actor) *httpError {
		c, source, cache := s.catalog.hostCatalog()
		w.Header().Set("Cache-Control", cache)
		writeRaw(w, http.StatusOK, c.Envelope(source))
		return nil
	})
}

// hostCatalog chooses what GET /host-catalog serves, as the gateway does:
// a live catalog younger than the TTL; else one shared refresh from the
// source (a reply older than the cached version does not replace it); a
// failed refresh serves the stale live catalog with no-cache, or, with
// nothing cached, the bundled catalog with no-store. It never fails.
func (cc *catalogCache) hostCatalog() (c *hostcfg.Catalog, source, cacheControl string) {
	s := cc.s
	if s.src == nil {
		return hostcfg.Bundled(), "bundled", "no-store"
	}
	cc.mu.Lock()
	live, fresh := cc.live, cc.live != nil && s.now().Sub(cc.fetched) < catalogTTL
	cc.mu.Unlock()
	if fresh {
		return live, "live", "public, max-age=300"
	}
	v, _, _ := cc.group.Do("refresh", func() (any, error) {
		got, err := cc.fetchCatalog()
		cc.mu.Lock()
		defer cc.mu.Unlock()
		if err != nil {
			s.log.Warn("projectopstest: live host catalog unavailable", "err", err)
			return nil, nil
		}
		if cc.live == nil || got.Version >= cc.live.Version {
			cc.live = got
		}
		cc.fetched = s.now() // an older reply restarts the cached one's TTL
		return cc.live, nil
	})
	if got, _ := v.(*hostcfg.Catalog); got != nil {
		return got, "live", "public, max-age=300"
	}
	if live != nil {
		return live, "live", "no-cache"
	}
	return hostcfg.Bundled(), "bundled", "no-store"
}

// fetchCatalog reads the live source once, with the gateway's timeout and
// its reader's rules; it is not tied to any one request.
func (cc *catalogCache) fetchCatalog() (*hostcfg.Catalog, error) {
	s := cc.s
	ctx, cancel := context.WithTimeout(s.ctx, catalogFetchTimeout)
	defer cancel()
	b, err := s.src(ctx)
	if err != nil {
		return nil, err
	}
	return hostcfg.Parse(b)
}

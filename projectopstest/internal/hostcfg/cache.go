package hostcfg

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"
)

// Host catalog timings of the service's gateway (reference notes,
// "GET /host-catalog in the gateway").
const (
	CatalogTTL          = 300 * time.Second
	CatalogFetchTimeout = 6500 * time.Millisecond
)

// Cache is the gateway's in-memory cache of the last good live catalog;
// refreshes are shared by concurrent requests. Without a Source it serves
// the bundled catalog only.
type Cache struct {
	source func(ctx context.Context) ([]byte, error)
	now    func() time.Time
	log    *slog.Logger
	ctx    context.Context // the owner's lifetime: a refresh is tied to no one request

	mu      sync.Mutex
	live    *Catalog
	fetched time.Time
	group   singleflight.Group

	// Enter counts a refresh with its owner, so closing the owner waits for
	// it (it returns once the owner's ctx ends); false once the owner is
	// closed, when the refresh falls back as a failed one does. Leave ends
	// it. Nil counts nothing.
	Enter func() bool
	Leave func()
}

// NewCache returns a cache over source (nil for none), reading time from
// now and logging failed refreshes to log; refreshes end with ctx.
func NewCache(ctx context.Context, source func(context.Context) ([]byte, error), now func() time.Time, log *slog.Logger) *Cache {
	return &Cache{source: source, now: now, log: log, ctx: ctx}
}

// Serve chooses what GET /host-catalog serves, as the gateway does: a live
// catalog younger than the TTL; else one shared refresh from the source (a
// reply older than the cached version does not replace it); a failed
// refresh serves the stale live catalog with no-cache, or, with nothing
// cached, the bundled catalog with no-store. It fails only with ctx's
// error, when the caller leaves during a refresh (which goes on for the
// others: it is tied to the owner's lifetime, not to one request).
func (cc *Cache) Serve(ctx context.Context) (c *Catalog, source, cacheControl string, err error) {
	if cc.source == nil {
		return Bundled(), "bundled", "no-store", nil
	}
	cc.mu.Lock()
	live, fresh := cc.live, cc.live != nil && cc.now().Sub(cc.fetched) < CatalogTTL
	cc.mu.Unlock()
	if fresh {
		return live, "live", "public, max-age=300", nil
	}
	ch := cc.group.DoChan("refresh", func() (any, error) {
		if cc.Enter != nil {
			if !cc.Enter() {
				return nil, nil // the owner is closing: as a failed refresh
			}
			defer cc.Leave()
		}
		got, err := cc.fetch(cc.ctx)
		cc.mu.Lock()
		defer cc.mu.Unlock()
		if err != nil {
			cc.log.Warn("projectopstest: live host catalog unavailable", "err", err)
			return nil, nil
		}
		if cc.live == nil || got.Version >= cc.live.Version {
			cc.live = got
		}
		cc.fetched = cc.now() // an older reply restarts the cached one's TTL
		return cc.live, nil
	})
	var res singleflight.Result
	select {
	case res = <-ch:
	case <-ctx.Done():
		return nil, "", "", ctx.Err()
	}
	if got, _ := res.Val.(*Catalog); got != nil {
		return got, "live", "public, max-age=300", nil
	}
	if live != nil {
		return live, "live", "no-cache", nil
	}
	return Bundled(), "bundled", "no-store", nil
}

// Template seeds a config from the live catalog's entry for id when a
// source is configured and has it (read directly, as the gateway's host
// route does, for as long as ctx lasts), else from the bundled catalog's.
// It fails only with ctx's error: a caller that left gets no config (the
// bundled one would stand in for a live catalog that was merely slow).
func (cc *Cache) Template(ctx context.Context, id, theme string) (map[string]any, bool, error) {
	if cc.source != nil {
		live, err := cc.fetch(ctx)
		if err == nil {
			if cfg, ok := live.Template(id, theme); ok {
				return cfg, true, nil
			}
		} else if ctx.Err() != nil {
			return nil, false, ctx.Err()
		}
	}
	cfg, ok := Bundled().Template(id, theme)
	return cfg, ok, nil
}

// fetch reads the live source once, with the gateway's timeout and its
// reader's rules, until ctx or the owner's lifetime ends.
func (cc *Cache) fetch(ctx context.Context) (*Catalog, error) {
	ctx, cancel := context.WithTimeout(ctx, CatalogFetchTimeout)
	defer cancel()
	defer context.AfterFunc(cc.ctx, cancel)()
	b, err := cc.source(ctx)
	if err != nil {
		return nil, err
	}
	return Parse(b)
}

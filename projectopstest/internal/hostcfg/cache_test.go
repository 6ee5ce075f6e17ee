package hostcfg

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"strconv"
	"sync"
	"testing"
	"time"
)

// fakeSource serves envelopes of a chosen version, or fails.
type fakeSource struct {
	mu      sync.Mutex
	version int
	fail    bool
	calls   int
}

func (f *fakeSource) fetch(context.Context) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.fail {
		return nil, errors.New("unreachable")
	}
	return bytes.Replace(bundledJSON, []byte(`"version": 0`), []byte(`"version": `+strconv.Itoa(f.version)), 1), nil
}

func TestCacheServes(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	log := slog.New(slog.NewTextHandler(io.Discard, nil))

	if c, src, cc, _ := NewCache(t.Context(), nil, clock, log).Serve(t.Context()); c != Bundled() || src != "bundled" || cc != "no-store" {
		t.Errorf("no source: %v %s %s", c.Version, src, cc)
	}

	f := &fakeSource{version: 2}
	cache := NewCache(t.Context(), f.fetch, clock, log)
	c, src, cc, _ := cache.Serve(t.Context())
	if c.Version != 2 || src != "live" || cc != "public, max-age=300" {
		t.Fatalf("first read: version %v, %s, %s", c.Version, src, cc)
	}
	cache.Serve(t.Context())
	if f.calls != 1 {
		t.Errorf("%d fetches within the TTL, want 1", f.calls)
	}

	now = now.Add(CatalogTTL)
	f.version = 1 // an older publish does not replace the cached one
	if c, _, _, _ := cache.Serve(t.Context()); c.Version != 2 || f.calls != 2 {
		t.Errorf("after the TTL: version %v after %d fetches, want 2 after 2", c.Version, f.calls)
	}

	now = now.Add(CatalogTTL)
	f.fail = true
	if c, src, cc, _ := cache.Serve(t.Context()); c.Version != 2 || src != "live" || cc != "no-cache" {
		t.Errorf("failed refresh: version %v, %s, %s; want the stale live catalog, no-cache", c.Version, src, cc)
	}
	if cfg, ok, err := cache.Template(t.Context(), "claude", "light"); !ok || cfg == nil || err != nil {
		t.Error("Template falls back to the bundled catalog when the source fails")
	}
}

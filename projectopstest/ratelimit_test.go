package projectopstest_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func TestRateLimit(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	other, _, err := srv.AddAPIKey(ws.UserID, "second")
	if err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	for i := range projectopstest.DefaultRateBurst {
		if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != 200 {
			t.Fatalf("request %d within the burst: %d %s", i, r.status, r.body)
		}
	}
	r := tg.call(t, "GET", "/me", ws.APIKey, nil)
	b := r.wantError(t, shared.CodeRateLimited)
	if got := r.header.Get("Retry-After"); got != "1" {
		t.Errorf("Retry-After = %q, want 1 (60/min refills one token a second)", got)
	}
	// The clock has not moved since the key's last request: the message
	// says so after the service's own.
	if !strings.HasPrefix(b.Message, "API key rate limit exceeded. Slow down and retry. (projectopstest: the injected clock") {
		t.Errorf("message = %q", b.Message)
	}
	// The limit is per key, and public routes are not limited.
	if r := tg.call(t, "GET", "/me", other, nil); r.status != 200 {
		t.Errorf("another key: %d", r.status)
	}
	for range 20 {
		if r := tg.call(t, "GET", "/host-catalog", "", nil); r.status != 200 {
			t.Fatalf("host catalog: %d", r.status)
		}
	}
	// Refused requests do not consume tokens: one second later exactly one
	// request passes.
	tg.call(t, "GET", "/me", ws.APIKey, nil).wantError(t, shared.CodeRateLimited)
	clock.Advance(time.Second)
	if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != 200 {
		t.Fatalf("after refill: %d %s", r.status, r.body)
	}
	tg.call(t, "GET", "/me", ws.APIKey, nil).wantError(t, shared.CodeRateLimited)
	// A long pause refills the whole burst, no more.
	clock.Advance(time.Hour)
	for range projectopstest.DefaultRateBurst {
		if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != 200 {
			t.Fatalf("after long pause: %d", r.status)
		}
	}
	tg.call(t, "GET", "/me", ws.APIKey, nil).wantError(t, shared.CodeRateLimited)
}

func TestRateLimitRetryAfterRoundsUp(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	// 6/min: one token every 10 s.
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now), projectopstest.WithRateLimit(6, 1))
	tg := inproc(srv)
	key := srv.Default().APIKey
	if r := tg.call(t, "GET", "/me", key, nil); r.status != 200 {
		t.Fatal(r.status)
	}
	clock.Advance(2500 * time.Millisecond)
	r := tg.call(t, "GET", "/me", key, nil)
	r.wantError(t, shared.CodeRateLimited)
	if got := r.header.Get("Retry-After"); got != "8" {
		t.Errorf("Retry-After = %q, want 8 (7.5 s rounded up)", got)
	}
}

func TestRateLimitDisabled(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	tg := inproc(srv)
	for i := range 50 {
		if r := tg.call(t, "GET", "/me", srv.Default().APIKey, nil); r.status != 200 {
			t.Fatalf("request %d: %d", i, r.status)
		}
	}
}

func TestOptionErrors(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]projectopstest.Option{
		"negative rate": projectopstest.WithRateLimit(-1, 1),
		"zero burst":    projectopstest.WithRateLimit(10, 0),
		"nil clock":     projectopstest.WithClock(nil),
		"nil seed":      projectopstest.WithSeed(nil),
		"nil logger":    projectopstest.WithLogger(nil),
		"nil source":    projectopstest.WithHostCatalogSource(nil),
	} {
		if srv, err := projectopstest.NewServer(opt); err == nil {
			srv.Close()
			t.Errorf("%s: NewServer succeeded", name)
		}
	}
}

// A 429 while the injected clock has not moved says so (a caller sleeping
// Retry-After in real time would be refused for ever); once the clock
// moved, the service's message is bare.
func TestRateLimitStoppedClockSaysSo(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now), projectopstest.WithRateLimit(60, 1))
	tg := inproc(srv)
	key := srv.Default().APIKey
	if r := tg.call(t, "GET", "/me", key, nil); r.status != 200 {
		t.Fatal(r.status)
	}
	b := tg.call(t, "GET", "/me", key, nil).wantError(t, shared.CodeRateLimited)
	if !strings.Contains(b.Message, "injected clock (WithClock) has not moved") || !strings.Contains(b.Message, "WithRateLimit(0, 0)") {
		t.Errorf("message with a stopped clock = %q, want it to say the clock did not move", b.Message)
	}
	clock.Advance(time.Second / 2)
	b = tg.call(t, "GET", "/me", key, nil).wantError(t, shared.CodeRateLimited)
	if b.Message != "API key rate limit exceeded. Slow down and retry." {
		t.Errorf("message once the clock moved = %q", b.Message)
	}
}

// With a stopped injected clock, the SDK gets RATE_LIMITED past the burst
// (the message says why) and WithRateLimit(0, 0) lets every call through.
func TestRateLimitStoppedClock(t *testing.T) {
	t.Parallel()
	for name, limit := range map[string]bool{"default limit": true, "limit off": false} {
		t.Run(name, func(t *testing.T) {
			opts := []projectopstest.Option{projectopstest.WithClock(newFakeClock().Now)}
			if !limit {
				opts = append(opts, projectopstest.WithRateLimit(0, 0))
			}
			srv := projectopstest.NewTestServer(t, opts...)
			c, err := srv.NewClient(option.WithMaxRetries(0))
			if err != nil {
				t.Fatal(err)
			}
			ws := srv.Default()
			for i := range projectopstest.DefaultRateBurst + 2 {
				_, err := c.Hosts.List(t.Context(), ws.ProjectID, nil)
				switch {
				case err == nil && limit && i >= projectopstest.DefaultRateBurst:
					t.Fatalf("call %d past the burst passed with a stopped clock", i+1)
				case err == nil:
				case !limit || i < projectopstest.DefaultRateBurst:
					t.Fatalf("call %d: %v", i+1, err)
				case !errors.Is(err, projectops.ErrRateLimited) || !strings.Contains(err.Error(), "WithRateLimit(0, 0)"):
					t.Fatalf("call %d: %v, want RATE_LIMITED saying the clock did not move", i+1, err)
				}
			}
		})
	}
}

// A clock set back is the bucket's new origin at the key's next request
// (refused: going back refills nothing); stepped forward from there by a
// whole bucket's refill, it refills the bucket.
func TestRateLimitClockSetBackThenAdvanceRefills(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	clock := projectopstest.NewClock(t0.Add(time.Hour))
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now))
	c, err := srv.NewClient(option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	for range projectopstest.DefaultRateBurst {
		if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil); err != nil {
			t.Fatal(err)
		}
	}
	clock.Set(t0)
	if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil); !errors.Is(err, projectops.ErrRateLimited) {
		t.Fatalf("call at the set-back reading: %v, want RATE_LIMITED", err)
	}
	clock.Advance(projectopstest.DefaultRateBurst * time.Second) // 60/min: the whole burst
	for i := range projectopstest.DefaultRateBurst {
		if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil); err != nil {
			t.Fatalf("call %d after the clock was set back and stepped a whole refill: %v", i+1, err)
		}
	}
	if _, err := c.Hosts.List(t.Context(), ws.ProjectID, nil); !errors.Is(err, projectops.ErrRateLimited) {
		t.Errorf("call past the refilled burst: %v, want RATE_LIMITED", err)
	}
}

// The key-management surface refuses a key before the gateway would meter
// it: requests there are never answered 429 and spend none of the key's
// budget for the rest of the API. Source: routes/web/api-keys.ts (the sk_
// refusal ahead of bearerAuthMiddleware) and middleware/bearer-auth.ts
// (the per-key token bucket is consumed after validating the key).
func TestKeyManagementSpendsNoRateBudget(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(newFakeClock().Now), projectopstest.WithRateLimit(60, 3))
	key := srv.Default().APIKey
	tg := inproc(srv)
	surface := target{name: tg.name, client: tg.client, base: strings.TrimSuffix(tg.base, "/api/v1")}
	for range 6 {
		surface.call(t, "GET", "/api/web/api-keys", key, nil).wantError(t, shared.CodeForbidden)
	}
	for i := range 3 {
		if r := tg.call(t, "GET", "/me", key, nil); r.status != 200 {
			t.Fatalf("GET /me %d after the refusals: %d %s, want 200 (the burst untouched)", i+1, r.status, r.body)
		}
	}
}

package projectopstest_test

import (
	"testing"
	"time"

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
	if b.Message != "API key rate limit exceeded. Slow down and retry." {
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

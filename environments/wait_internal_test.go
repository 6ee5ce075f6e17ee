package environments

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/shared"
)

// script answers requests in order and records them.
type script struct {
	mu    sync.Mutex
	resps []func() *http.Response
	seen  []string
}

func (s *script) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.seen = append(s.seen, r.Method+" "+r.URL.Path)
	if len(s.resps) == 0 {
		return nil, errors.New("script exhausted")
	}
	f := s.resps[0]
	s.resps = s.resps[1:]
	resp := f()
	resp.Request = r
	return resp, nil
}

func reply(status int, body string, header ...string) func() *http.Response {
	return func() *http.Response {
		h := http.Header{"Content-Type": {"application/json"}}
		for i := 0; i+1 < len(header); i += 2 {
			h.Set(header[i], header[i+1])
		}
		return &http.Response{StatusCode: status, Header: h, Body: io.NopCloser(strings.NewReader(body))}
	}
}

// newScripted returns a Service over the script whose sleeps are recorded,
// not slept; the transport never waits out a Retry-After itself.
func newScripted(sc *script) (*Service, *[]time.Duration) { return newScriptedCap(sc, 2, -1) }

// newScriptedCap is newScripted with the transport's retries and
// MaxRetryAfter cap, which WaitForBuild applies to the Retry-Afters it waits.
func newScriptedCap(sc *script, retries int, maxRetryAfter time.Duration) (*Service, *[]time.Duration) {
	t := transport.New(transport.Config{BaseURL: "https://api.test/api/v1", APIKey: "sk_test",
		HTTPClient: &http.Client{Transport: sc}, MaxRetries: retries, BaseDelay: time.Microsecond,
		MaxDelay: time.Microsecond, MaxRetryAfter: maxRetryAfter})
	var slept []time.Duration
	s := newService(t)
	s.sleep = func(ctx context.Context, d time.Duration) error {
		slept = append(slept, d)
		return ctx.Err()
	}
	return s, &slept
}

func builds(status string) func() *http.Response {
	return reply(200, `{"items":[{"id":"bld_1","status":"`+status+`","provider":"provider_a","baseImageDigests":[],"createdAt":1}]}`)
}

func TestWaitForBuildWaitsOutRateLimits(t *testing.T) {
	t.Parallel()
	sc := &script{resps: []func() *http.Response{
		builds("queued"),
		reply(429, `{"code":"RATE_LIMITED","message":"slow down"}`, "Retry-After", "7"),
		builds("building"),
		builds("ready"),
	}}
	// The transport does not retry; WaitForBuild waits out the 7s, which
	// is under the 10s cap.
	s, slept := newScriptedCap(sc, 0, 10*time.Second)
	var progress []BuildStatus
	b, err := s.WaitForBuild(t.Context(), "prj_1", "env_1", "bld_1", WithPollInterval(time.Second, 2*time.Second),
		WithProgress(func(b *Build) { progress = append(progress, b.Status) }))
	if err != nil || b.Status != BuildReady {
		t.Fatalf("WaitForBuild = %+v, %v", b, err)
	}
	if len(*slept) != 3 {
		t.Fatalf("slept %v, want 3 waits", *slept)
	}
	if d := (*slept)[1]; d < 7*time.Second {
		t.Errorf("waited %s after a 429 with Retry-After 7s", d)
	}
	for i, d := range []time.Duration{(*slept)[0], (*slept)[2]} {
		if d < 800*time.Millisecond || d > 2400*time.Millisecond {
			t.Errorf("backoff %d = %s, want within the jittered 1s..2s interval", i, d)
		}
	}
	if len(progress) != 3 || progress[0] != BuildQueued || progress[2] != BuildReady {
		t.Errorf("progress = %v", progress)
	}
	for _, r := range sc.seen {
		if r != "GET /api/v1/projects/prj_1/computer-environments/env_1/builds" {
			t.Errorf("request %s", r)
		}
	}
}

func TestWaitForBuildReturnsOtherErrors(t *testing.T) {
	t.Parallel()
	sc := &script{resps: []func() *http.Response{reply(403, `{"code":"FORBIDDEN","message":"no"}`)}}
	s, _ := newScripted(sc)
	_, err := s.WaitForBuild(t.Context(), "prj_1", "env_1", "bld_1", nil)
	if !errors.Is(err, shared.ErrForbidden) {
		t.Fatalf("err = %v", err)
	}
	_, err = s.WaitForBuild(t.Context(), "prj_1", "env_1", "", nil)
	if e, ok := apierr.As(err); !ok || e.Code != shared.CodeValidation || len(sc.seen) != 1 {
		t.Fatalf("empty build id: %v (requests %v)", err, sc.seen)
	}
}

// Each method's retry class: reads and idempotent writes retry a 503,
// non-idempotent writes do not (the request may have run).
func TestRetryClasses(t *testing.T) {
	t.Parallel()
	ok := map[string]string{
		"list": `{"items":[]}`, "get": `{}`, "builds": `{"items":[]}`, "update": `{}`, "share": `{}`,
		"create": `{}`, "build": `{}`, "boot": `{}`, "reset": `{}`, "delete": `{}`,
	}
	calls := map[string]func(*Service) error{
		"list":   func(s *Service) error { _, err := s.List(context.Background(), "p", nil); return err },
		"get":    func(s *Service) error { _, err := s.Get(context.Background(), "p", "e"); return err },
		"builds": func(s *Service) error { _, err := s.ListBuilds(context.Background(), "p", "e", nil); return err },
		"update": func(s *Service) error {
			_, err := s.Update(context.Background(), "p", "e", UpdateParams{Name: "n"})
			return err
		},
		"share": func(s *Service) error { _, err := s.Share(context.Background(), "p", "e"); return err },
		"create": func(s *Service) error {
			_, err := s.Create(context.Background(), "p", CreateParams{Name: "n", Dockerfile: "FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"})
			return err
		},
		"build":  func(s *Service) error { _, err := s.Build(context.Background(), "p", "e"); return err },
		"boot":   func(s *Service) error { _, err := s.Boot(context.Background(), "p", "e"); return err },
		"reset":  func(s *Service) error { _, err := s.Reset(context.Background(), "p"); return err },
		"delete": func(s *Service) error { _, err := s.Delete(context.Background(), "p", "e"); return err },
	}
	retried := map[string]bool{"list": true, "get": true, "builds": true, "update": true, "share": true}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sc := &script{resps: []func() *http.Response{
				reply(503, `{"code":"INTERNAL_ERROR","message":"x"}`), reply(200, ok[name]),
			}}
			s, _ := newScripted(sc)
			err := call(s)
			if retried[name] != (err == nil) || len(sc.seen) != map[bool]int{true: 2, false: 1}[retried[name]] {
				t.Errorf("%s after a 503: err %v, %d requests; retried want %v", name, err, len(sc.seen), retried[name])
			}
			// A 429 means the request did not run: every class retries.
			sc = &script{resps: []func() *http.Response{
				reply(429, `{"code":"RATE_LIMITED","message":"x"}`, "Retry-After", "0"), reply(200, ok[name]),
			}}
			s, _ = newScripted(sc)
			if err := call(s); err != nil || len(sc.seen) != 2 {
				t.Errorf("%s after a 429: %v, %d requests", name, err, len(sc.seen))
			}
		})
	}
}

// When ctx ends, WaitForBuild returns the last build seen with ctx's error
// under its name, as evals' Runs.Wait returns its run (it returned nil).
func TestWaitForBuildReturnsLastSeenOnCancel(t *testing.T) {
	t.Parallel()
	sc := &script{resps: []func() *http.Response{builds("building"), builds("building")}}
	s, _ := newScripted(sc)
	ctx, cancel := context.WithCancel(t.Context())
	s.sleep = func(context.Context, time.Duration) error { cancel(); return context.Canceled }
	b, err := s.WaitForBuild(ctx, "prj_1", "env_1", "bld_1")
	if !errors.Is(err, context.Canceled) || b == nil || b.Status != BuildBuilding {
		t.Errorf("WaitForBuild = %+v, %v; want the building build and context.Canceled", b, err)
	}
	// The error names the wait, as a call's names the call.
	if want := "projectops: waiting for build bld_1: context canceled"; err == nil || err.Error() != want {
		t.Errorf("WaitForBuild's error %v; want %q", err, want)
	}
}

package transport

import (
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/shared"
)

// handlerRT serves requests with h in process, as the double does; calls
// counts the requests it served.
type handlerRT struct {
	h     http.Handler
	err   error
	mu    sync.Mutex
	calls int
}

func (rt *handlerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	rt.mu.Lock()
	rt.calls++
	rt.mu.Unlock()
	if rt.err != nil {
		return nil, rt.err
	}
	rec := httptest.NewRecorder()
	rt.h.ServeHTTP(rec, r)
	resp := rec.Result()
	resp.Request = r
	return resp, nil
}

// inProcRT is handlerRT marked as serving in process.
type inProcRT struct{ *handlerRT }

func (inProcRT) InProcess() {}

// The client is skipped only for an in-process transport under a client
// that adds nothing: no jar, no timeout, no redirect policy of its own.
func TestDirectTransportOnlyForABareInProcessClient(t *testing.T) {
	t.Parallel()
	rt := inProcRT{&handlerRT{h: http.NotFoundHandler()}}
	jar, _ := cookiejar.New(nil)
	for _, tc := range []struct {
		name   string
		client *http.Client
		direct bool
	}{
		{"in process", &http.Client{Transport: rt}, true},
		{"jar", &http.Client{Transport: rt, Jar: jar}, false},
		{"timeout", &http.Client{Transport: rt, Timeout: time.Minute}, false},
		{"redirect policy", &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return nil }}, false},
		{"not in process", &http.Client{Transport: rt.handlerRT}, false},
	} {
		tr := New(Config{BaseURL: "http://double.invalid/api/v1", APIKey: testKey, HTTPClient: tc.client})
		if got := tr.direct != nil; got != tc.direct {
			t.Errorf("%s: direct = %v, want %v", tc.name, got, tc.direct)
		}
	}
}

// Called directly, an in-process transport still has its GET redirects
// followed and its write redirects refused, as through the client.
func TestDirectTransportRedirects(t *testing.T) {
	t.Parallel()
	for _, code := range []int{301, 302, 303, 307, 308} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			landed := 0
			mux := http.NewServeMux()
			mux.HandleFunc("/api/v1/moved", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/api/v1/landed", code)
			})
			mux.HandleFunc("/api/v1/landed", func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				landed++
				mu.Unlock()
				_, _ = w.Write([]byte(`{"ok":true}`))
			})
			rt := inProcRT{&handlerRT{h: mux}}
			tr := New(Config{BaseURL: "http://double.invalid/api/v1", APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
			if tr.direct == nil {
				t.Fatal("the in-process transport is not called directly")
			}

			var out struct{ OK bool }
			if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/moved", Class: Read}, &out); err != nil || !out.OK {
				t.Fatalf("GET: err = %v, ok = %v; want the redirect followed", err, out.OK)
			}
			out.OK = false
			err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/moved", Body: map[string]any{}, Class: Write}, &out)
			if e, ok := errors.AsType[*shared.Error](err); !ok || e.StatusCode != code {
				t.Fatalf("POST: err = %v, want *shared.Error with status %d", err, code)
			}
			mu.Lock()
			defer mu.Unlock()
			if landed != 1 || out.OK {
				t.Errorf("%d requests landed, want 1 (the GET's)", landed)
			}
		})
	}
}

// A transport error reads the same called directly as through the client.
func TestDirectTransportErrorReadsAsThroughTheClient(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	do := func(rt http.RoundTripper) error {
		tr := New(Config{BaseURL: "http://double.invalid/api/v1", APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
		return tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/me", Class: Read}, nil)
	}
	direct := do(inProcRT{&handlerRT{err: boom}})
	client := do(&handlerRT{err: boom})
	if direct == nil || client == nil || direct.Error() != client.Error() || !errors.Is(direct, boom) {
		t.Errorf("direct: %v\nclient: %v", direct, client)
	}
}

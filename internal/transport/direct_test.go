package transport

import (
	"errors"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/wire"
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
	if r.Body != nil {
		defer r.Body.Close() // a RoundTripper closes the request body
	}
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

func (inProcRT) InProcess(wire.InProcessMark) {}

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
// followed and its write redirects refused, as through the client, and
// every hop is served once: the 3xx the direct call got is the client's
// answer to its first hop, not a reason to send the request again.
func TestDirectTransportRedirects(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		status int
		loc    string
		follow bool // as http.Client does: 301/302/303/307/308 with a Location
	}{
		{"301", 301, "/api/v1/landed", true},
		{"302", 302, "/api/v1/landed", true},
		{"303", 303, "/api/v1/landed", true},
		{"307", 307, "/api/v1/landed", true},
		{"308", 308, "/api/v1/landed", true},
		{"302 without Location", 302, "", false},
		{"304", 304, "", false},
		{"300 with Location", 300, "/api/v1/landed", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var moved, landed atomic.Int32
			mux := http.NewServeMux()
			mux.HandleFunc("/api/v1/moved", func(w http.ResponseWriter, r *http.Request) {
				moved.Add(1)
				if tc.loc != "" {
					w.Header().Set("Location", tc.loc)
				}
				w.WriteHeader(tc.status)
			})
			mux.HandleFunc("/api/v1/landed", func(w http.ResponseWriter, r *http.Request) {
				landed.Add(1)
				_, _ = w.Write([]byte(`{"ok":true}`))
			})
			rt := inProcRT{&handlerRT{h: mux}}
			tr := New(Config{BaseURL: "http://double.invalid/api/v1", APIKey: testKey, HTTPClient: &http.Client{Transport: rt}})
			if tr.direct == nil {
				t.Fatal("the in-process transport is not called directly")
			}

			var out struct{ OK bool }
			err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/moved", Class: Read}, &out)
			if tc.follow {
				if err != nil || !out.OK {
					t.Errorf("GET: err = %v, ok = %v; want the redirect followed", err, out.OK)
				}
			} else if e, ok := errors.AsType[*shared.Error](err); !ok || e.StatusCode != tc.status {
				t.Errorf("GET: err = %v, want the %d unfollowed", err, tc.status)
			}
			out.OK = false
			err = tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/moved", Body: map[string]any{}, Class: Write}, &out)
			if e, ok := errors.AsType[*shared.Error](err); !ok || e.StatusCode != tc.status {
				t.Errorf("POST: err = %v, want *shared.Error with status %d", err, tc.status)
			}
			wantLanded := int32(0)
			if tc.follow {
				wantLanded = 1 // the GET's
			}
			if m, l := moved.Load(), landed.Load(); m != 2 || l != wantLanded || out.OK {
				t.Errorf("/moved served %d times (want 2: once per call), /landed %d (want %d)", m, l, wantLanded)
			}
			rt.mu.Lock()
			defer rt.mu.Unlock()
			if want := 2 + int(wantLanded); rt.calls != want {
				t.Errorf("the transport served %d requests, want %d", rt.calls, want)
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

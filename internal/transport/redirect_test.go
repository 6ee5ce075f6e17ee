package transport

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// A write answered with a redirect fails with the 3xx; it is never re-sent
// (307/308) nor turned into a GET (301/302/303) that "succeeds" although
// the write never ran.
func TestRedirectedWriteIsAnError(t *testing.T) {
	t.Parallel()
	for _, code := range []int{301, 302, 303, 307, 308} {
		t.Run(strconv.Itoa(code), func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			landed := 0
			mux := http.NewServeMux()
			mux.HandleFunc("/api/v1/tools/call", func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, "/api/v1/landed", code)
			})
			mux.HandleFunc("/api/v1/landed", func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				landed++
				mu.Unlock()
				_, _ = w.Write([]byte(`{"ok":true}`))
			})
			srv := httptest.NewServer(mux)
			t.Cleanup(srv.Close)
			tr := New(Config{BaseURL: srv.URL + "/api/v1", APIKey: testKey, HTTPClient: srv.Client(), MaxRetries: 3})

			var out struct{ OK bool }
			err := tr.Do(t.Context(), &Request{Method: http.MethodPost, Route: "/tools/call", Body: map[string]any{}, Class: Write}, &out)
			var e *shared.Error
			if !errors.As(err, &e) || e.StatusCode != code {
				t.Fatalf("err = %v, want *shared.Error with status %d", err, code)
			}
			mu.Lock()
			defer mu.Unlock()
			if landed != 0 || out.OK {
				t.Errorf("the redirect was followed (%d requests landed)", landed)
			}
		})
	}
}

// keySeen records the headers each path received.
type keySeen struct {
	mu  sync.Mutex
	got map[string]http.Header
}

func (k *keySeen) handler(next func(w http.ResponseWriter, r *http.Request)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		k.mu.Lock()
		k.got[r.URL.Path] = r.Header.Clone()
		k.mu.Unlock()
		next(w, r)
	}
}

// A read follows redirects, but Authorization goes only to the base URL's
// origin: not to another port of the same host (net/http would send it),
// and not back to the origin once a hop left it.
func TestRedirectKeepsKeyOnOrigin(t *testing.T) {
	t.Parallel()
	for _, userClient := range []bool{false, true} {
		t.Run("user-client="+strconv.FormatBool(userClient), func(t *testing.T) {
			t.Parallel()
			seen := &keySeen{got: map[string]http.Header{}}
			other := httptest.NewServer(nil)
			t.Cleanup(other.Close)
			api := httptest.NewServer(nil)
			t.Cleanup(api.Close)
			api.Config.Handler = seen.handler(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/api/v1/start":
					http.Redirect(w, r, "/api/v1/same", http.StatusFound)
				case "/api/v1/same":
					http.Redirect(w, r, other.URL+"/away", http.StatusTemporaryRedirect)
				default:
					_, _ = w.Write([]byte(`{"ok":true}`))
				}
			})
			other.Config.Handler = seen.handler(func(w http.ResponseWriter, r *http.Request) {
				http.Redirect(w, r, api.URL+"/api/v1/back", http.StatusFound)
			})

			hc := &http.Client{Transport: api.Client().Transport}
			userChecks := 0
			if userClient {
				hc.CheckRedirect = func(*http.Request, []*http.Request) error { userChecks++; return nil }
			}
			tr := New(Config{BaseURL: api.URL + "/api/v1", APIKey: testKey, HTTPClient: hc})
			var out struct{ OK bool }
			if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/start", Class: Read}, &out); err != nil || !out.OK {
				t.Fatalf("Do: %v (ok %v)", err, out.OK)
			}
			seen.mu.Lock()
			defer seen.mu.Unlock()
			want := map[string]string{"/api/v1/start": "Bearer " + testKey, "/api/v1/same": "Bearer " + testKey, "/away": "", "/api/v1/back": ""}
			for p, w := range want {
				if h, ok := seen.got[p]; !ok || h.Get("Authorization") != w {
					t.Errorf("%s got Authorization %q (seen %v), want %q", p, h.Get("Authorization"), ok, w)
				}
			}
			if userClient && userChecks != 3 {
				t.Errorf("the caller's CheckRedirect ran %d times, want 3", userChecks)
			}
			if hc.CheckRedirect == nil && userClient {
				t.Error("the caller's client was changed")
			}
		})
	}
}

// Every credential header goes only to the base URL's origin, as
// Authorization does: the client's and the call's own (their names mark
// them as credentials, as for redaction: X-Api-Key, X-Proxy-Token) and
// those net/http drops on a redirect to another domain (Cookie, Cookie2,
// Proxy-Authorization, WWW-Authenticate), which it keeps for another port
// of the same host. A header that is no credential follows the redirect.
func TestRedirectKeepsCredentialHeadersOnOrigin(t *testing.T) {
	t.Parallel()
	creds := map[string]string{
		"X-Api-Key": "call-secret-0123456789", "X-Proxy-Token": "proxy-secret-0123456789",
		"Cookie": "session=cookie-secret", "Cookie2": "c2=cookie-secret", "Proxy-Authorization": "Basic cHJveHk6c2VjcmV0",
		"Www-Authenticate": "Bearer realm=x",
	}
	seen := &keySeen{got: map[string]http.Header{}}
	// The same host on another port: another origin, though net/http
	// would keep Cookie and Authorization for it.
	other := httptest.NewServer(seen.handler(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(other.Close)
	api := httptest.NewServer(seen.handler(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v1/start":
			http.Redirect(w, r, "/api/v1/same", http.StatusFound)
		default:
			http.Redirect(w, r, other.URL+"/away", http.StatusFound)
		}
	}))
	t.Cleanup(api.Close)
	h := http.Header{"X-Trace-Tag": {"blue"}}
	for k, v := range creds {
		h.Set(k, v)
	}
	tr := New(Config{BaseURL: api.URL + "/api/v1", APIKey: testKey, HTTPClient: api.Client(), Header: h})
	var out struct{ OK bool }
	if err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/start", Class: Read}, &out); err != nil || !out.OK {
		t.Fatalf("Do: %v (ok %v)", err, out.OK)
	}
	seen.mu.Lock()
	defer seen.mu.Unlock()
	for _, p := range []string{"/api/v1/start", "/api/v1/same", "/away"} {
		got, ok := seen.got[p]
		if !ok {
			t.Fatalf("%s was never requested", p)
		}
		home := p != "/away"
		for k, v := range creds {
			if want := map[bool]string{true: v, false: ""}[home]; got.Get(k) != want {
				t.Errorf("%s got %s %q, want %q", p, k, got.Get(k), want)
			}
		}
		if got.Get("X-Trace-Tag") != "blue" {
			t.Errorf("%s lost X-Trace-Tag, which is no credential", p)
		}
	}
}

// A read answered with a 3xx net/http does not follow fails with that
// status, and its message says what happened: a 304 is no redirect but
// the answer to a conditional header the SDK never sends; a 300 with a
// Location is a redirect not followed, named by its target's origin only
// (the rest may carry a token); one without a Location cannot be
// followed. None of them speaks of writes.
func TestUnfollowableReadRedirectSaysSo(t *testing.T) {
	t.Parallel()
	const notModified = "Not Modified: the SDK sends no conditional request; a caller-set If-None-Match or If-Modified-Since header, or a cache on the path, answered it"
	for _, tc := range []struct {
		status         int
		location, want string
	}{
		{300, "", "Multiple Choices: a redirect without a Location, which cannot be followed (status 300 to a read; check the base URL)"},
		{300, "https://mirror.example:8443/api/v1/x?token=tok_secret", "Multiple Choices: redirect to https://mirror.example:8443 not followed"},
		{302, "", "Found: a redirect without a Location, which cannot be followed (status 302 to a read; check the base URL)"},
		{304, "", notModified},
		{304, "/api/v1/elsewhere", notModified},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if tc.location != "" {
				w.Header().Set("Location", tc.location)
			}
			w.WriteHeader(tc.status)
		}))
		tr := New(Config{BaseURL: srv.URL + "/api/v1", APIKey: testKey, HTTPClient: srv.Client()})
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x", Class: Read}, nil)
		srv.Close()
		e, ok := errors.AsType[*shared.Error](err)
		if !ok || e.StatusCode != tc.status {
			t.Fatalf("%d (Location %q): err = %v, want *shared.Error with that status", tc.status, tc.location, err)
		}
		if e.Message != tc.want {
			t.Errorf("%d (Location %q): message %q, want %q", tc.status, tc.location, e.Message, tc.want)
		}
	}
}

// A redirect the caller's own CheckRedirect declined (returning
// http.ErrUseLastResponse) is a redirect not followed, named by the
// target's origin alone (a relative Location resolved against the
// request): the SDK could have followed it, so the message does not say
// it cannot.
func TestCallerDeclinedRedirectIsNotFollowed(t *testing.T) {
	t.Parallel()
	for _, loc := range []string{"/api/v1/moved?sig=abc", ""} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			target := loc
			if target == "" {
				target = "http://other.example/moved?sig=abc"
			}
			http.Redirect(w, r, target, http.StatusFound)
		}))
		hc := &http.Client{Transport: srv.Client().Transport,
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		tr := New(Config{BaseURL: srv.URL + "/api/v1", APIKey: testKey, HTTPClient: hc})
		err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x", Class: Read}, nil)
		srv.Close()
		want := "Found: redirect to " + srv.URL + " not followed"
		if loc == "" {
			want = "Found: redirect to http://other.example not followed"
		}
		if e, ok := errors.AsType[*shared.Error](err); !ok || e.StatusCode != http.StatusFound || e.Message != want {
			t.Errorf("Location %q: err = %v, want a 302 *shared.Error with message %q", loc, err, want)
		}
	}
}

// The idempotency key is no credential in any spelling: a read redirected
// to another origin carries it on as both Idempotency-Key and
// X-Mcpjam-Idempotency-Key, not one without the other.
func TestRedirectKeepsIdempotencyKeySpellingsTogether(t *testing.T) {
	t.Parallel()
	seen := &keySeen{got: map[string]http.Header{}}
	other := httptest.NewServer(seen.handler(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write([]byte(`{"ok":true}`))
	}))
	t.Cleanup(other.Close)
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/away", http.StatusFound)
	}))
	t.Cleanup(api.Close)
	tr := New(Config{BaseURL: api.URL + "/api/v1", APIKey: testKey, HTTPClient: api.Client()})
	ctx := WithOptions(t.Context(), []option.RequestOption{option.WithIdempotencyKey("caller-key-0123456789")})
	var out struct{ OK bool }
	if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/start", Class: Read}, &out); err != nil || !out.OK {
		t.Fatalf("Do: %v (ok %v)", err, out.OK)
	}
	seen.mu.Lock()
	defer seen.mu.Unlock()
	h := seen.got["/away"]
	if h.Get(IdempotencyHeader) != "caller-key-0123456789" || h.Get(PrefixedIdempotencyHeader) != "caller-key-0123456789" {
		t.Errorf("the other origin got %s %q and %s %q, want the key in both",
			IdempotencyHeader, h.Get(IdempotencyHeader), PrefixedIdempotencyHeader, h.Get(PrefixedIdempotencyHeader))
	}
}

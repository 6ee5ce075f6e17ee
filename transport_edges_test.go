package projectops_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

func edgeClient(t *testing.T, url string, opts ...option.RequestOption) *projectops.Client {
	t.Helper()
	base := []option.RequestOption{option.WithoutEnvironment(), option.WithAPIKey("sk_test_audit"),
		option.WithBaseURL(url), option.WithRetryBackoff(time.Millisecond, 2*time.Millisecond)}
	c, err := projectops.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Docs/sdk.md: reads are retried on network errors. A GET whose 200 body is cut
// by a connection reset is a network error; the SDK should retry it.
func TestReadRetriedAfterBodyCutMidResponse(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1) == 1 {
			hj := w.(http.Hijacker)
			conn, buf, _ := hj.Hijack()
			buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 200\r\n\r\n{\"id\":\"hst_1\",\"na")
			buf.Flush()
			if tc, ok := conn.(interface{ SetLinger(int) error }); ok {
				tc.SetLinger(0)
			}
			conn.Close()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"hst_1","name":"x"}`))
	}))
	defer srv.Close()
	c := edgeClient(t, srv.URL+"/api/v1")
	_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1")
	if err != nil || n.Load() != 2 {
		t.Fatalf("GET cut mid-body: attempts=%d err=%v; want a retry and success", n.Load(), err)
	}
}

// The SDK owns X-Projectops-Retry-Count (docs/sdk.md: "Each retry carries
// X-Projectops-Retry-Count: n"; "Headers the SDK owns ... are refused").
func TestRetryCountHeaderRefused(t *testing.T) {
	t.Parallel()
	var got []string
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, strings.Join(r.Header.Values("X-Projectops-Retry-Count"), ","))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"hst_1"}`))
	}))
	defer srv.Close()
	c := edgeClient(t, srv.URL+"/api/v1")
	_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1", option.WithHeader("X-Projectops-Retry-Count", "7"))
	if err == nil {
		t.Fatalf("WithHeader(X-Projectops-Retry-Count) accepted; first attempt sent retry count %q (want VALIDATION_ERROR, nothing sent)", got)
	}
	if !errors.Is(err, projectops.ErrValidation) {
		t.Fatalf("err = %v", err)
	}
}

// WithHeader("User-Agent", ...) is accepted but the SDK silently replaces it
// on every request (docs/sdk.md: headers the SDK owns are refused with a
// VALIDATION_ERROR before anything is sent).
func TestUserAgentHeaderRefused(t *testing.T) {
	t.Parallel()
	var ua string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ua = r.Header.Get("User-Agent")
		w.Write([]byte(`{"id":"hst_1"}`))
	}))
	defer srv.Close()
	c := edgeClient(t, srv.URL+"/api/v1")
	_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1", option.WithHeader("User-Agent", "mine/1"))
	if !errors.Is(err, projectops.ErrValidation) || ua != "" {
		t.Fatalf("WithHeader(User-Agent): %v, server saw %q; want VALIDATION_ERROR (WithUserAgent sets it), nothing sent", err, ua)
	}
}

// WithHeader does not validate the value: a header value net/http refuses
// (a newline) is not a VALIDATION_ERROR before sending (option docs: "An
// option given a bad value fails NewClient, or the call, with a
// VALIDATION_ERROR naming it") but a network-style error, retried with
// backoff as if the network had failed.
func TestInvalidHeaderValueIsValidationError(t *testing.T) {
	t.Parallel()
	var n atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n.Add(1)
		w.Write([]byte(`{"id":"hst_1"}`))
	}))
	defer srv.Close()
	_, cerr := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_x"),
		option.WithBaseURL(srv.URL+"/api/v1"), option.WithHeader("X-Tenant", "a\r\nX-Injected: 1"))
	if cerr == nil {
		t.Errorf("NewClient accepted a header value with CRLF")
	}
	c := edgeClient(t, srv.URL+"/api/v1")
	var meta option.Response
	_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1",
		option.WithHeader("X-Tenant", "a\r\nX-Injected: 1"), option.WithResponseInto(&meta))
	if !errors.Is(err, projectops.ErrValidation) {
		t.Fatalf("bad header value: err=%v (attempts=%d); want VALIDATION_ERROR, nothing sent", err, meta.Attempts)
	}
}

// docs/sdk.md: "Reads follow up to 10 redirects". A GET answered by a chain
// of exactly 10 redirects (then 200) should succeed.
func TestReadFollowsTenRedirects(t *testing.T) {
	t.Parallel()
	var hops atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if h := hops.Add(1); h <= 10 {
			http.Redirect(w, r, r.URL.Path+"?hop="+string(rune('a'+h)), http.StatusFound)
			return
		}
		w.Write([]byte(`{"id":"hst_1"}`))
	}))
	defer srv.Close()
	c := edgeClient(t, srv.URL+"/api/v1")
	_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1", option.WithMaxRetries(0))
	if err != nil {
		t.Fatalf("10 redirects: requests=%d err=%v", hops.Load(), err)
	}
}

// A redirect loop is a deterministic failure, not a network error, but a
// read retries it (docs/sdk.md: reads are retried on network errors and
// 429/5xx; a redirect loop is neither), re-walking the whole chain each time.
func TestRedirectLoopNotRetried(t *testing.T) {
	t.Parallel()
	var reqs atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		reqs.Add(1)
		http.Redirect(w, r, r.URL.Path, http.StatusFound)
	}))
	defer srv.Close()
	c := edgeClient(t, srv.URL+"/api/v1")
	var meta option.Response
	_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1", option.WithResponseInto(&meta))
	if meta.Attempts != 1 {
		t.Fatalf("redirect loop: attempts=%d HTTP requests=%d err=%v; want 1 attempt", meta.Attempts, reqs.Load(), err)
	}
}

// A call whose wait before a retry is cut short by its context ends with
// one line that matches both the context's error and the last answer.
func TestCutRetryWaitIsOneLine(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"code":"SERVER_UNREACHABLE","message":"down"}`))
	}))
	defer srv.Close()
	c := edgeClient(t, srv.URL+"/api/v1")
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	_, err := c.Hosts.Get(ctx, "prj_1", "hst_1")
	var e *projectops.Error
	if !errors.Is(err, context.DeadlineExceeded) || !errors.As(err, &e) || e.StatusCode != 503 || strings.Contains(err.Error(), "\n") {
		t.Errorf("err = %q", err)
	}
}

// A client's WithHeader value (a proxy's token) that the service or a
// gateway quotes back is not in the error text, nor in WithResponseInto's
// headers, as the key is not: docs/sdk.md says error text never holds the
// headers.
func TestReflectedHeaderValueNotInError(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("X-Echo", r.Header.Get("X-Proxy-Token"))
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"code":"VALIDATION_ERROR","message":"bad token ` + r.Header.Get("X-Proxy-Token") + ` / ` + r.Header.Get("Authorization") + `"}`))
	}))
	t.Cleanup(srv.Close)
	c := edgeClient(t, srv.URL, option.WithHeader("X-Proxy-Token", "HEADER-SECRET-9"))
	var meta option.Response
	_, err := c.Catalog.Me(context.Background(), option.WithResponseInto(&meta))
	if !errors.Is(err, projectops.ErrValidation) {
		t.Fatalf("err = %v", err)
	}
	if strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "sk_test_audit") || strings.Contains(meta.Header.Get("X-Echo"), "SECRET") {
		t.Errorf("a client header's value shows: err %v; X-Echo %q", err, meta.Header.Get("X-Echo"))
	}
}

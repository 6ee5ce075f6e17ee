package projectops_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/servers"
)

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// A tool call answered with a 302 is an error through WithTransport and
// WithHTTPClient alike: the redirect is not followed as a GET that would
// report a call that never ran.
func TestCallToolRedirectIsAnError(t *testing.T) {
	t.Parallel()
	var followed atomic.Int32
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		h := http.Header{}
		if r.Method == http.MethodPost {
			h.Set("Location", "https://api.example.test/api/v1/elsewhere")
			return &http.Response{StatusCode: http.StatusFound, Header: h, Body: http.NoBody, Request: r}, nil
		}
		followed.Add(1)
		h.Set("Content-Type", "application/json")
		return &http.Response{StatusCode: http.StatusOK, Header: h, Request: r,
			Body: io.NopCloser(strings.NewReader(`{"content":[]}`))}, nil
	})
	for name, opt := range map[string]option.RequestOption{
		"WithTransport":  option.WithTransport(rt),
		"WithHTTPClient": option.WithHTTPClient(&http.Client{Transport: rt}),
	} {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_redirect"),
			option.WithBaseURL("https://api.example.test/api/v1"), opt)
		if err != nil {
			t.Fatal(err)
		}
		res, err := c.Servers.CallTool(t.Context(), "p", "s", servers.CallToolParams{ToolName: "write"})
		var e *projectops.Error
		if !errors.As(err, &e) || e.StatusCode != http.StatusFound || res != nil {
			t.Errorf("%s: CallTool = %v, %v; want a 302 *projectops.Error", name, res, err)
		}
	}
	if n := followed.Load(); n != 0 {
		t.Errorf("the redirect was followed %d times", n)
	}
}

// docs/sdk.md "Redirects": the client's credentials stay with the base
// URL's origin. Besides Authorization, the headers the SDK keeps out of
// error text as credentials (a client's WithHeader X-Proxy-Token and
// Cookie, a call's X-Api-Key) are not handed to another origin a read is
// redirected to.
func TestRedirectKeepsCredentialHeadersAtHome(t *testing.T) {
	t.Parallel()
	var got atomic.Pointer[http.Header]
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := r.Header.Clone()
		got.Store(&h)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"hst_1"}`))
	}))
	defer other.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
	}))
	defer home.Close()
	c := edgeClient(t, home.URL+"/api/v1",
		option.WithHeader("X-Proxy-Token", "proxy-secret-0123456789"),
		option.WithHeader("Cookie", "session=cookie-secret-0123456789"))
	if _, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1",
		option.WithHeader("X-Api-Key", "call-secret-0123456789")); err != nil {
		t.Fatalf("GET redirected: %v", err)
	}
	h := got.Load()
	if h == nil {
		t.Fatal("the redirect was not followed")
	}
	for _, name := range []string{"Authorization", "X-Proxy-Token", "X-Api-Key", "Cookie"} {
		if v := h.Get(name); v != "" {
			t.Errorf("another origin received the client's credential header %s: %q", name, v)
		}
	}
}

// docs/sdk.md "Redirects": only a write's 3xx is refused for the write's
// sake; a GET answered 300 without a Location is a redirect nothing can
// follow, and a 304 the answer to a conditional header the SDK never
// sends: neither error speaks of writes.
func TestReadRedirectErrorDoesNotBlameWrites(t *testing.T) {
	t.Parallel()
	for status, want := range map[int]string{
		http.StatusMultipleChoices: "cannot be followed",
		http.StatusNotModified:     "the SDK sends no conditional request",
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(status)
		}))
		c := edgeClient(t, srv.URL+"/api/v1")
		_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1")
		srv.Close()
		if err == nil {
			t.Fatalf("GET answered %d: no error", status)
		}
		if strings.Contains(err.Error(), "writes are never re-sent") || !strings.Contains(err.Error(), want) {
			t.Errorf("GET answered %d: %v; want it to say %q, not speak of writes", status, err, want)
		}
	}
}

// docs/sdk.md "Redirects": a hop that leaves the base URL's origin, and
// every hop after it, carries no Referer. net/http sets it to the previous
// hop's URL, path whole: here an id pasted from the key, which errors
// redact, would reach the other origin, and the return hop would carry
// the other origin's URL home.
func TestRedirectSendsNoRefererOffOrigin(t *testing.T) {
	t.Parallel()
	var atOther, back atomic.Pointer[string]
	home := httptest.NewServer(nil)
	defer home.Close()
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := r.Header.Get("Referer")
		atOther.Store(&s)
		http.Redirect(w, r, home.URL+"/api/v1/back", http.StatusFound)
	}))
	defer other.Close()
	home.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/api/v1/back" {
			http.Redirect(w, r, other.URL+"/elsewhere", http.StatusFound)
			return
		}
		s := r.Header.Get("Referer")
		back.Store(&s)
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"hst_1"}`))
	})
	c := edgeClient(t, home.URL+"/api/v1")
	if _, err := c.Hosts.Get(context.Background(), "prj_1", "sk_test_pasted_as_an_id"); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]*atomic.Pointer[string]{"the other origin": &atOther, "the hop back home": &back} {
		switch s := p.Load(); {
		case s == nil:
			t.Errorf("%s was never reached", name)
		case *s != "":
			t.Errorf("%s got Referer %q, want none", name, *s)
		}
	}
}

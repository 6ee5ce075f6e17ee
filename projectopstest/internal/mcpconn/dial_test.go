package mcpconn

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDialTransports(t *testing.T) {
	t.Parallel()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		target func(t *testing.T) Target
	}{
		{"inprocess", func(*testing.T) Target { return inproc() }},
		{"http", func(t *testing.T) Target { return Target{Transport: TransportHTTP, URL: httpServer(t, false).URL} }},
		{"sse", func(t *testing.T) Target { return Target{Transport: TransportSSE, URL: httpServer(t, true).URL} }},
		{"stdio", func(*testing.T) Target {
			return Target{Transport: TransportStdio, Command: exe, Env: []string{stdioEnv + "=1"}}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tg := tt.target(t)
			tg.ProtocolVersion = "2025-06-18"
			c, err := testDialer().Dial(t.Context(), tg)
			if err != nil {
				t.Fatalf("Dial: %v", err)
			}
			defer func() {
				if !CloseWithin(c, 5*time.Second) {
					t.Error("Close did not finish")
				}
			}()
			init := c.Session.InitializeResult()
			if init.ServerInfo.Name != "test" || init.ProtocolVersion != "2025-06-18" {
				t.Fatalf("initialize = %+v / %q", init.ServerInfo, init.ProtocolVersion)
			}
			echo(t, c)
		})
	}
}

func TestDialSendsHeaders(t *testing.T) {
	t.Parallel()
	mcpSrv := httpServer(t, false)
	seen := make(chan string, 16)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen <- r.Header.Get("X-Team")
		mcpSrv.Config.Handler.ServeHTTP(w, r)
	}))
	defer ts.Close()
	c, err := testDialer().Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL, Headers: map[string]string{"X-Team": "blue"}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if got := <-seen; got != "blue" {
		t.Fatalf("X-Team = %q, want blue", got)
	}
}

func TestDialAuthRejected(t *testing.T) {
	t.Parallel()
	for _, status := range []int{http.StatusUnauthorized, http.StatusForbidden} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.WriteHeader(status)
		}))
		defer ts.Close()
		_, err := testDialer().Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL})
		var f *Failure
		if !errors.As(err, &f) || f.Kind != AuthRequired {
			t.Fatalf("status %d: err = %v, want an AuthRequired Failure", status, err)
		}
		if got := Classify(err, nil, t.Context(), nil); got.Kind != AuthRequired {
			t.Fatalf("Classify kind = %d", got.Kind)
		}
	}
}

func TestDialConnectTimeout(t *testing.T) {
	t.Parallel()
	ts := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		// Accepts, never answers. The body is drained so the server
		// notices the client hanging up.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	defer ts.Close()
	d := testDialer()
	d.ConnectTimeout = 50 * time.Millisecond
	_, err := d.Dial(t.Context(), Target{Transport: TransportHTTP, URL: ts.URL})
	if !errors.Is(err, ErrConnectTimeout) {
		t.Fatalf("err = %v, want ErrConnectTimeout", err)
	}
	if f := Classify(err, nil, t.Context(), nil); f.Kind != Timeout {
		t.Fatalf("kind = %d, want Timeout", f.Kind)
	}
}

func TestDialUnknownTransport(t *testing.T) {
	t.Parallel()
	if _, err := testDialer().Dial(t.Context(), Target{Transport: "carrier-pigeon"}); err == nil {
		t.Fatal("Dial of an unknown transport succeeded")
	}
}

// bearerRT stands for the OAuth transport a Target's HTTPClient carries: it
// adds its bearer to every request it sends.
type bearerRT struct{ token string }

func (b bearerRT) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

// TestDialCredentialsStayOnOrigin: the bearer of the target's client and
// the saved Authorization, Cookie and Proxy-Authorization headers reach the
// saved URL's origin only. A redirect within it keeps them; once a redirect
// has left it (another host, or only another port, which net/http alone
// would still send Authorization to) they are off for the rest of the
// chain, a hop back to the origin included, as fetch does. Other saved
// headers follow every hop.
func TestDialCredentialsStayOnOrigin(t *testing.T) {
	t.Parallel()
	const bearer, saved = "tok-must-stay", "hdr-must-stay"
	type seen struct {
		path string
		h    http.Header
	}
	for _, tc := range []struct {
		name  string
		creds bool // whether the MCP endpoint should see them
		// bounce sends the origin's requests through another server
		// ("" none): "host" names it localhost, "port" 127.0.0.1.
		bounce string
		back   bool // the other server redirects back to the origin
	}{
		{name: "same origin", creds: true},
		{name: "other host", bounce: "host"},
		{name: "other port", bounce: "port"},
		{name: "back to the origin", bounce: "port", back: true},
	} {
		for _, via := range []string{"bearer", "saved header"} {
			t.Run(tc.name+"/"+via, func(t *testing.T) {
				t.Parallel()
				mcpSrv := httpServer(t, false)
				var mu sync.Mutex
				var atMCP []seen
				serveMCP := func(w http.ResponseWriter, r *http.Request) {
					mu.Lock()
					atMCP = append(atMCP, seen{r.Host + r.URL.Path, r.Header.Clone()})
					mu.Unlock()
					mcpSrv.Config.Handler.ServeHTTP(w, r)
				}
				var originURL string
				other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					if tc.back {
						http.Redirect(w, r, originURL+"/mcp", http.StatusTemporaryRedirect)
						return
					}
					serveMCP(w, r)
				}))
				defer other.Close()
				otherURL := other.URL
				if tc.bounce == "host" {
					otherURL = strings.Replace(otherURL, "127.0.0.1", "localhost", 1)
				}
				origin := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					switch {
					case r.URL.Path == "/mcp":
						serveMCP(w, r)
					case tc.bounce == "":
						http.Redirect(w, r, originURL+"/mcp", http.StatusTemporaryRedirect)
					default:
						http.Redirect(w, r, otherURL+"/mcp", http.StatusTemporaryRedirect)
					}
				}))
				defer origin.Close()
				originURL = origin.URL
				tg := Target{Transport: TransportHTTP, URL: origin.URL + "/",
					Headers: map[string]string{"Cookie": "c=" + saved, "Proxy-Authorization": "Basic " + saved, "X-Team": "blue"}}
				if via == "bearer" {
					tg.HTTPClient = &http.Client{Transport: bearerRT{bearer}}
				} else {
					tg.Headers["Authorization"] = "Bearer " + saved
				}
				c, err := testDialer().Dial(t.Context(), tg)
				if err != nil {
					t.Fatalf("Dial: %v", err)
				}
				echo(t, c)
				if !CloseWithin(c, 5*time.Second) {
					t.Error("Close did not finish")
				}
				mu.Lock()
				defer mu.Unlock()
				if len(atMCP) == 0 {
					t.Fatal("the MCP endpoint saw no request")
				}
				for _, s := range atMCP {
					if s.h.Get("X-Team") != "blue" {
						t.Errorf("%s: X-Team = %q, want blue", s.path, s.h.Get("X-Team"))
					}
					for _, k := range []string{"Authorization", "Cookie", "Proxy-Authorization"} {
						if got := s.h.Get(k) != ""; got != tc.creds {
							t.Errorf("%s: %s sent %v, want %v", s.path, k, got, tc.creds)
						}
						if v := s.h.Get(k); !tc.creds && (strings.Contains(v, bearer) || strings.Contains(v, saved)) {
							t.Errorf("%s: %s carries the secret", s.path, k)
						}
					}
				}
			})
		}
	}
}

func TestOriginOf(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ url, want string }{
		{"http://Example.COM/mcp", "http://example.com:80"},
		{"HTTP://example.com:80", "http://example.com:80"},
		{"https://example.com/x?y", "https://example.com:443"},
		{"https://example.com:8443", "https://example.com:8443"},
		{"http://user:pw@[::1]:9/", "http://[::1]:9"},
		{"/relative", ""},
		{"http://%zz", ""},
	} {
		if got := originOf(tc.url); got != tc.want {
			t.Errorf("originOf(%q) = %q, want %q", tc.url, got, tc.want)
		}
	}
}

package mcpconn

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
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

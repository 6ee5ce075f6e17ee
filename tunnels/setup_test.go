package tunnels_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/tunnels"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

type fixture = sdktest.Fixture

var (
	setup     = sdktest.Setup
	must      = sdktest.Must
	wantError = sdktest.WantError
	wantField = sdktest.WantField
	t0        = sdktest.T0
)

// fastReconnect keeps reconnect tests quick.
var fastReconnect = tunnels.WithReconnect(time.Millisecond, 10*time.Millisecond, time.Second)

// host is a running tunnels.Serve.
type host struct {
	done      chan error
	connected chan struct{}
	cancel    context.CancelFunc
}

// serve starts Serve for g with h and waits until the relay routes to it.
// Serve reads the double's clock, which issued g's expiry.
func serve(t *testing.T, f *fixture, g *tunnels.Grant, h http.Handler, opts ...tunnels.ServeOption) *host {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	hs := &host{done: make(chan error, 1), connected: make(chan struct{}, 16), cancel: cancel}
	opts = append([]tunnels.ServeOption{fastReconnect, tunnels.WithClock(f.Clock.Now),
		tunnels.OnConnect(func() { hs.connected <- struct{}{} })}, opts...)
	go func() { hs.done <- f.C.Tunnels.Serve(ctx, g, h, opts...) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-hs.done:
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return after cancel")
		}
	})
	hs.waitConnected(t)
	return hs
}

func (hs *host) waitConnected(t *testing.T) {
	t.Helper()
	select {
	case <-hs.connected:
	case err := <-hs.done:
		hs.done <- err // for the cleanup
		t.Fatalf("Serve returned before connecting: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not connect")
	}
}

// wait returns Serve's result.
func (hs *host) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-hs.done:
		hs.done <- err // for the cleanup
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return")
		return nil
	}
}

// create makes a tunnel named name in the default project.
func create(t *testing.T, f *fixture, name string) *tunnels.Grant {
	t.Helper()
	g, err := f.C.Tunnels.Create(t.Context(), f.WS.ProjectID, tunnels.CreateParams{Name: name})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	return g
}

// get sends method to u through the double's in-process client and returns
// the status and body.
func get(t *testing.T, f *fixture, method, u, body string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, u, rd)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("reading body: %v", err)
	}
	return resp.StatusCode, string(b)
}

func fmtf(w io.Writer, verb string, v any) { fmt.Fprintf(w, verb+"\n", v) }

// syncWriter serialises writes from concurrent loggers.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

func (s *syncWriter) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprint(s.w)
}

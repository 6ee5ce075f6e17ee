package tunnels_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/tunnels"
)

// echo answers with what it received.
var echo = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	b, _ := io.ReadAll(r.Body)
	w.Header().Set("X-Echo-Method", r.Method)
	w.WriteHeader(http.StatusAccepted)
	fmt.Fprintf(w, "%s %s %s", r.Method, r.URL.RequestURI(), b)
})

func TestServeRelays(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, echo)
	status, body := get(t, f, http.MethodPost, g.URL+"&x=1", "hello")
	if status != http.StatusAccepted || body != "POST /mcp?x=1 hello" {
		t.Fatalf("got %d %q", status, body)
	}
}

func TestNoHostFailsFast(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	status, body := get(t, f, http.MethodPost, g.URL, "{}")
	if status != http.StatusBadGateway || !strings.Contains(body, `"SERVER_UNREACHABLE"`) {
		t.Fatalf("no host: %d %s", status, body)
	}
	// After the host leaves, the URL fails fast again.
	h := serve(t, f, g, echo)
	h.cancel()
	if err := h.wait(t); !errors.Is(err, context.Canceled) {
		t.Fatalf("Serve after cancel = %v", err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		status, body = get(t, f, http.MethodGet, g.URL, "")
		if status == http.StatusBadGateway || time.Now().After(deadline) {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if status != http.StatusBadGateway || !strings.Contains(body, `"SERVER_UNREACHABLE"`) {
		t.Fatalf("host gone: %d %s", status, body)
	}
}

// Wrong, old and missing secrets and unknown slugs get the same answer.
func TestBadSecret(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, echo)
	k := secretOf(t, g)
	base := strings.TrimSuffix(g.URL, "?k="+k)
	var bodies []string
	for _, u := range []string{
		base, base + "?k=", base + "?k=" + k[:len(k)-1] + "x", base + "?k=" + k + "x",
		strings.Replace(g.URL, g.Slug, "tnope", 1), "http://projectops.test/tunnels/" + g.Slug + "/mcp?K=" + k,
	} {
		status, body := get(t, f, http.MethodPost, u, "{}")
		if status != http.StatusNotFound {
			t.Errorf("%s: %d", tunnels.RedactURL(u), status)
		}
		bodies = append(bodies, body)
	}
	for _, b := range bodies[1:] {
		if b != bodies[0] {
			t.Errorf("answers differ: %s vs %s", b, bodies[0])
		}
	}
}

func TestStreamsResponses(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	next := make(chan struct{})
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for i := range 3 {
			fmt.Fprintf(w, "data: %d\n\n", i)
			w.(http.Flusher).Flush()
			select {
			case <-next:
			case <-r.Context().Done():
				return
			}
		}
	}))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("Content-Type %q", ct)
	}
	br := bufio.NewReader(resp.Body)
	for i := range 3 {
		// Each event arrives before the handler writes the next one.
		line, err := br.ReadString('\n')
		if err != nil || line != fmt.Sprintf("data: %d\n", i) {
			t.Fatalf("event %d: %q %v", i, line, err)
		}
		_, _ = br.ReadString('\n')
		next <- struct{}{}
	}
	if rest, err := io.ReadAll(br); err != nil || len(rest) != 0 {
		t.Errorf("after the events: %q %v", rest, err)
	}
}

func TestRevokeDuringLiveRequest(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	started, handlerDone := make(chan struct{}), make(chan error, 1)
	h := serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write([]byte("partial"))
		w.(http.Flusher).Flush()
		close(started)
		<-r.Context().Done()
		handlerDone <- r.Context().Err()
	}))
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL, nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	<-started
	// The flushed part is read before the revoke: still in flight, it
	// could be dropped with the agent's socket.
	head := make([]byte, len("partial"))
	if _, err := io.ReadFull(resp.Body, head); err != nil || string(head) != "partial" {
		t.Fatalf("before the revoke: %q %v", head, err)
	}
	if _, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID); err != nil {
		t.Fatal(err)
	}
	// The public caller sees its response cut short, the handler its
	// context cancelled, and Serve stops with ErrRevoked.
	b, err := io.ReadAll(resp.Body)
	if err == nil || len(b) != 0 {
		t.Errorf("after the revoke: body %q, err %v; want nothing more and an error", b, err)
	}
	select {
	case <-handlerDone:
	case <-time.After(5 * time.Second):
		t.Fatal("handler context not cancelled")
	}
	if err := h.wait(t); !errors.Is(err, tunnels.ErrRevoked) {
		t.Errorf("Serve = %v", err)
	}
}

func TestCallerCancelReachesHandler(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	started, cancelled := make(chan struct{}), make(chan struct{})
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !r.URL.Query().Has("wait") {
			return
		}
		close(started)
		<-r.Context().Done()
		close(cancelled)
	}))
	ctx, cancel := context.WithCancel(t.Context())
	go func() {
		<-started
		cancel()
	}()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"&wait=1", nil)
	if resp, err := f.Srv.Client().Do(req); err == nil {
		resp.Body.Close()
		t.Fatal("request succeeded")
	}
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("handler not cancelled")
	}
	// The session is still fine.
	if status, body := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusOK {
		t.Errorf("after a cancel: %d %s", status, body)
	}
}

func TestHandlerPanicDropsResponse(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("late") {
			w.Write([]byte("x"))
			w.(http.Flusher).Flush()
		}
		panic("boom")
	}))
	status, body := get(t, f, http.MethodGet, g.URL, "")
	if status != http.StatusBadGateway || !strings.Contains(body, "SERVER_UNREACHABLE") {
		t.Errorf("panic before the head: %d %s", status, body)
	}
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, g.URL+"&late=1", nil)
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Error("a body cut short by a panic read cleanly")
	}
}

// Large bodies both ways, concurrently, arrive intact.
func TestConcurrentLargeBodies(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, err := io.ReadAll(r.Body)
		if err != nil || int64(len(b)) != r.ContentLength {
			http.Error(w, "bad body", http.StatusBadRequest)
			return
		}
		w.Write(bytes.Repeat(b, 3))
	}))
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			in := strings.Repeat(string(rune('a'+i)), 100_000+i*tunnelChunk)
			status, out := get(t, f, http.MethodPost, g.URL, in)
			if status != http.StatusOK || out != strings.Repeat(in, 3) {
				t.Errorf("caller %d: %d, %d bytes back", i, status, len(out))
			}
		})
	}
	wg.Wait()
}

const tunnelChunk = 64 << 10

// A response head too large for a message fails the request at once (502)
// instead of leaving the caller waiting for a head that never comes.
func TestOversizedResponseHeadFails(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Has("big") {
			w.Header().Set("X-Big", strings.Repeat("a", tunnelwire.MaxControl))
		}
		_, _ = io.WriteString(w, "body")
	}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		if status, _ := get(t, f, http.MethodGet, g.URL+"&big=1", ""); status != http.StatusBadGateway {
			t.Errorf("status %d, want 502", status)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("the caller is still waiting")
	}
	// The tunnel still serves.
	if status, body := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusOK || body != "body" {
		t.Errorf("next request: %d %q", status, body)
	}
}

// A public request whose body cannot be read (malformed chunked encoding)
// answers 400 VALIDATION_ERROR, as the double's other routes do; it
// answered an empty 200.
func TestRelayUnreadableBody(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, echo)
	base, err := f.Srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	bu, _ := url.Parse(base)
	pu, _ := url.Parse(g.URL)
	c, err := net.Dial("tcp", bu.Host)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	_, _ = c.Write([]byte("POST " + pu.RequestURI() + " HTTP/1.1\r\nHost: " + bu.Host +
		"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n"))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), "VALIDATION_ERROR") {
		t.Errorf("malformed request body: %d %s, want 400 VALIDATION_ERROR", resp.StatusCode, b)
	}
}

package tunnels_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// The host queues a request body its handler has not read up to the
// hello's maxReqBody capped at its own (the service's 10 MiB): an edge
// that announces a huge cap (broken or hostile) and streams an endless
// body does not grow the host's memory without bound. 48 MiB was queued
// here without a too_large.
func TestHelloMaxReqBodyIsCapped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 1 << 50, Chunk: 64 << 10, MaxInflight: 32})
	release := make(chan struct{})
	defer close(release)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		select { // never reads its body
		case <-release:
		case <-r.Context().Done():
		}
	}))
	c := e.next(t)
	c.send(tunnelwire.AppendReq(nil, 1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, true, true))
	chunk := tunnelwire.AppendChunk(nil, tunnelwire.ReqChunk, 1, bytes.Repeat([]byte("x"), tunnelwire.MaxChunk))
	const total = 48 // MiB
	for range total {
		c.send(chunk)
	}
	c.req(2, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	aborted := false
	for {
		m := c.control()
		if m.ID == 1 && m.T == tunnelwire.Abort {
			aborted = true
		}
		if m.ID == 2 && (m.T == tunnelwire.ResEnd || m.T == tunnelwire.Abort) {
			break
		}
	}
	if !aborted {
		t.Errorf("the host queued %d MiB of an unread request body (the hello announced no real cap) without aborting the stream", total)
	}
}

// A hello that announces more requests in flight than the host's own cap
// (the service's 32) gets the cap: a req past it is aborted (overloaded)
// without reaching the handler. 3000 reqs ran 3000 handlers at once.
func TestHelloMaxInflightIsCapped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 10 << 20, Chunk: 64 << 10, MaxInflight: 1 << 20})
	const capped, extra = 32, 8
	started, release := make(chan struct{}, capped+extra), make(chan struct{})
	defer close(release)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/mcp/quick" { // past the cap: answered at once if served at all
			return
		}
		started <- struct{}{}
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	c := e.next(t)
	for id := range uint32(capped + extra) {
		p := "/api/mcp/adapter-http/srv_1"
		if id >= capped {
			p += "/quick"
		}
		c.req(id+1, http.MethodGet, p, nil, nil)
	}
	for range capped {
		select {
		case <-started:
		case <-time.After(10 * time.Second):
			t.Fatal("the requests within the cap did not all reach the handler")
		}
	}
	// The streams past the cap end in any order: each ends once.
	for ended := 0; ended < extra; {
		m := c.control()
		switch {
		case m.ID <= capped || m.T == tunnelwire.Res:
		case m.T == tunnelwire.Abort && m.Code == tunnelwire.AbortOverloaded:
			ended++
		default:
			t.Fatalf("stream %d past the cap: %+v, want an overloaded abort", m.ID, m)
		}
	}
}

// A stream stops counting against maxInflight before its last message
// goes out: an edge at the limit may send its next req as soon as it has
// read a res_end, and that req is served.
func TestInflightSlotFreedAtResponseEnd(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 10 << 20, Chunk: 64 << 10, MaxInflight: 1})
	serveOn(t, f, e.grant(), echo)
	c := e.next(t)
	for id := range uint32(20) {
		c.req(id+1, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
		if r := c.response(id + 1); r.abort != "" {
			t.Fatalf("stream %d, sent once stream %d had ended: %+v", id+1, id, r)
		}
	}
}

// An edge stops counting a stream when it aborts it (the double's edge
// forgets a stream as soon as its caller is gone, after sending
// client_gone; the service's agent drops its entry on abort too), and so
// does the host, whether or not the handler has returned: the edge's next
// req within its maxInflight is served. The host counted the aborted
// stream until its handler returned, and refused that req overloaded.
func TestInflightSlotFreedAtEdgeAbort(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 10 << 20, Chunk: 64 << 10, MaxInflight: 1})
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/mcp/slow" {
			return
		}
		started <- struct{}{}
		<-r.Context().Done()
		<-release // cleanup after the cancel (a local server hung up on, a log flushed)
	}))
	c := e.next(t)
	c.req(1, http.MethodGet, "/api/mcp/adapter-http/srv_1/slow", nil, nil)
	<-started
	c.send(tunnelwire.AppendAbort(nil, 1, tunnelwire.AbortClientGone, ""))
	c.req(2, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	if r := c.response(2); r.abort != "" {
		t.Errorf("a req within the edge's maxInflight, its only other stream aborted by the edge: abort %q, want it served", r.abort)
	}
}

// A stream the host aborts too_large stops counting before the abort
// goes out, though its handler runs on: the edge's next req is served.
func TestInflightSlotFreedAtTooLarge(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 1 << 10, Chunk: 64 << 10, MaxInflight: 1})
	started, release := make(chan struct{}, 1), make(chan struct{})
	defer close(release)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			return
		}
		started <- struct{}{}
		<-release // has not read its body yet
	}))
	c := e.next(t)
	c.send(tunnelwire.AppendReq(nil, 1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, true, true))
	<-started // its body is to come: the handler does not wait for it
	c.send(tunnelwire.AppendChunk(nil, tunnelwire.ReqChunk, 1, bytes.Repeat([]byte("x"), 2<<10)))
	if r := c.response(1); r.abort != tunnelwire.AbortTooLarge {
		t.Fatalf("a body past maxReqBody: %+v, want a too_large abort", r)
	}
	c.req(2, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	if r := c.response(2); r.abort != "" {
		t.Errorf("a req sent once the host had aborted the edge's only other stream too_large: abort %q, want it served", r.abort)
	}
}

// When the edge aborts a stream, the body it queued for the handler is
// dropped at once, whole or not: the handler's read fails, and the host
// holds no body for a stream the edge no longer counts. The handler read
// the whole body after the abort.
func TestEdgeAbortDropsQueuedBody(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	started, release, read := make(chan struct{}, 1), make(chan struct{}), make(chan error, 1)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			return
		}
		started <- struct{}{}
		<-release
		_, err := io.ReadAll(r.Body)
		read <- err
	}))
	c := e.next(t)
	c.req(1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, bytes.Repeat([]byte("x"), 256<<10))
	<-started
	c.send(tunnelwire.AppendAbort(nil, 1, tunnelwire.AbortClientGone, ""))
	// Messages are handled in order: once the probe is answered the abort
	// has been taken in.
	c.req(2, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	c.response(2)
	close(release)
	if err := <-read; err == nil {
		t.Error("a handler read its whole body after the edge aborted the stream; want an error")
	}
}

// A response head too large to relay ends the stream with an abort, and
// the host lets go of the stream as the edge does: its request is
// cancelled and its body dropped, so a read of it fails. The chunks and
// req_end the edge had in flight find no stream; the handler reading its
// body after the failed Flush waited until the session ended.
func TestHeadTooLargeEndsBodyRead(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.DefaultLimits)
	type result struct{ read, ctx error }
	flushed, done := make(chan struct{}), make(chan result, 1)
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Big", strings.Repeat("a", tunnelwire.MaxControl+1))
		w.(http.Flusher).Flush()
		close(flushed)
		_, err := io.ReadAll(r.Body)
		done <- result{err, r.Context().Err()}
	}))
	c := e.next(t)
	c.send(tunnelwire.AppendReq(nil, 1, http.MethodPost, "/api/mcp/adapter-http/srv_1", nil, true, true))
	if r := c.response(1); r.abort != tunnelwire.AbortUpstreamError {
		t.Fatalf("a head too large: %+v, want an upstream_error abort", r)
	}
	<-flushed
	// The edge had the rest of the body in flight when the abort came.
	c.send(tunnelwire.AppendChunk(nil, tunnelwire.ReqChunk, 1, []byte("rest")),
		tunnelwire.AppendEnd(nil, tunnelwire.ReqEnd, 1))
	select {
	case r := <-done:
		if r.read == nil || r.ctx == nil {
			t.Errorf("after a head too large the body read ended with %v and the context with %v; want both failed", r.read, r.ctx)
		}
	case <-time.After(10 * time.Second): // only keeps a broken host from hanging the test
		t.Fatal("the handler's body read never ended after the host aborted its stream (head too large)")
	}
}

// Through the double's own edge: callers that gave up on slow requests
// leave the double's edge with no stream in flight, and the next request
// is served while the handlers they left finish their cleanup. Every
// later request through the tunnel failed (502) until those handlers
// returned.
func TestDoubleEdgeCallersGoneLeaveRoom(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	const n = 32
	var startedWG, cancelledWG sync.WaitGroup
	startedWG.Add(n)
	cancelledWG.Add(n)
	release := make(chan struct{})
	defer close(release)
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !r.URL.Query().Has("slow") {
			return
		}
		startedWG.Done()
		<-r.Context().Done()
		cancelledWG.Done()
		<-release
	}))
	ctx, cancel := context.WithCancel(t.Context())
	var callers sync.WaitGroup
	for range n {
		callers.Go(func() {
			req, _ := http.NewRequestWithContext(ctx, http.MethodGet, g.URL+"&slow=1", nil)
			if resp, err := f.Srv.Client().Do(req); err == nil {
				resp.Body.Close()
			}
		})
	}
	startedWG.Wait()
	cancel()
	callers.Wait()
	cancelledWG.Wait() // the host has taken in every abort
	// The double's edge forgets a stream just after its abort goes out:
	// until it has, it answers 503 itself (its own count); the host's
	// answer comes after that. (The deadline only keeps a broken edge
	// from hanging the test.)
	deadline := time.Now().Add(10 * time.Second)
	for {
		status, body := get(t, f, http.MethodGet, g.URL, "")
		switch {
		case status == http.StatusOK:
			return
		case status == http.StatusServiceUnavailable && time.Now().Before(deadline):
			time.Sleep(time.Millisecond)
			continue
		}
		t.Fatalf("with no caller left in flight at the edge: %d %s, want 200", status, body)
	}
}

// Through the double's own edge: a response head the edge cannot write (a
// control character in a header value) is answered 502, and the edge
// tells the host it forgot the stream, which then counts it no more and
// cancels its handler. The edge forgot such streams silently: after
// maxInflight of them, handlers that end with their context as an SSE
// stream does, the host refused every request (502) though the edge
// counted none in flight.
func TestDoubleEdgeBadHeadLeavesRoom(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	release := make(chan struct{})
	defer close(release)
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !r.URL.Query().Has("bad") {
			return
		}
		w.Header()["X-Bad"] = []string{"a\x01b"}
		w.(http.Flusher).Flush()
		select { // a stream that ends when its caller goes away
		case <-r.Context().Done():
		case <-release:
		}
	}))
	for i := range tunnelwire.DefaultLimits.MaxInflight {
		if status, body := get(t, f, http.MethodGet, g.URL+"&bad=1", ""); status != http.StatusBadGateway {
			t.Fatalf("bad head %d: %d %s, want 502", i, status, body)
		}
	}
	if status, body := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusOK {
		t.Errorf("a request with no other in flight at the double's edge: %d %s, want 200", status, body)
	}
}

// A hello's chunk size is capped at the host's own (the service's 64 KiB):
// a response chunk is buffered whole per stream, and the host recycles
// buffers of that size. An edge announcing 1 MiB got 200 KiB in one chunk.
func TestHelloChunkIsCapped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	e := newFakeEdge(t, tunnelwire.Limits{MaxReqBody: 10 << 20, Chunk: 1 << 20, MaxInflight: 32})
	serveOn(t, f, e.grant(), http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = w.Write(bytes.Repeat([]byte("x"), 200<<10))
	}))
	c := e.next(t)
	c.req(1, http.MethodGet, "/api/mcp/adapter-http/srv_1", nil, nil)
	total := 0
	for {
		typ, msg, err := c.r.Read()
		if err != nil {
			t.Fatalf("edge read: %v", err)
		}
		if typ == websocket.MessageBinary {
			ch, err := tunnelwire.DecodeChunk(msg)
			if err != nil {
				t.Fatal(err)
			}
			if len(ch.Payload) > 64<<10 {
				t.Errorf("a response chunk of %d bytes, want at most 64 KiB", len(ch.Payload))
			}
			total += len(ch.Payload)
			continue
		}
		if m, err := tunnelwire.DecodeControl(msg); err != nil || m.T == tunnelwire.ResEnd || m.T == tunnelwire.Abort {
			break
		}
	}
	if total != 200<<10 {
		t.Errorf("response of %d bytes, want %d", total, 200<<10)
	}
}

package tunnels_test

import (
	"bytes"
	"net/http"
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
		typ, msg, err := c.r.Read()
		if err != nil {
			t.Fatalf("edge read: %v", err)
		}
		if typ != websocket.MessageText {
			continue
		}
		m, err := tunnelwire.DecodeControl(msg)
		if err != nil {
			t.Fatal(err)
		}
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
		typ, msg, err := c.r.Read()
		if err != nil {
			t.Fatalf("edge read: %v", err)
		}
		if typ != websocket.MessageText {
			continue
		}
		m, err := tunnelwire.DecodeControl(msg)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case m.ID <= capped || m.T == tunnelwire.Res:
		case m.T == tunnelwire.Abort && m.Code == tunnelwire.AbortOverloaded:
			ended++
		default:
			t.Fatalf("stream %d past the cap: %s, want an overloaded abort", m.ID, msg)
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

package projectopstest_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// Over loopback, Close ends a relayed stream already answered (an SSE
// response the caller holds open) as it starts, while a request the agent
// has not answered yet keeps its grace: the agent hears the stream
// aborted, then answers the other request, which its caller gets in full.
// Were the stream held until the grace ended, the abort would come only
// as Close cut every connection, the other request's included.
func TestCloseLoopbackEndsAnsweredStreamKeepsGrace(t *testing.T) {
	f := newRelayFixture(t, true)
	a := f.dial(t)

	streamc := f.public(context.Background(), "GET", "", "", nil)
	sse := a.next()
	if sse.T != "req" {
		t.Fatalf("agent got %+v, want req", sse)
	}
	a.sendText(`{"t":"res","id":%d,"status":200,"headers":[["content-type","text/event-stream"]]}`, sse.ID)
	a.sendChunk(sse.ID, "data: one\n\n")
	stream := <-streamc
	if stream.StatusCode != 200 {
		t.Fatalf("stream: %d %s", stream.StatusCode, stream.Status)
	}
	defer stream.Body.Close()
	buf := make([]byte, len("data: one\n\n"))
	if _, err := io.ReadFull(stream.Body, buf); err != nil {
		t.Fatalf("the first event did not stream: %q %v", buf, err)
	}

	pendingc := f.public(context.Background(), "GET", "", "", nil)
	pending := a.next()
	if pending.T != "req" || pending.ID == sse.ID {
		t.Fatalf("agent got %+v, want the second req", pending)
	}

	closed := make(chan struct{})
	go func() { _ = f.srv.Close(); close(closed) }()

	if m := a.next(); m.T != "abort" || m.ID != sse.ID {
		t.Fatalf("after Close began the agent got %+v, want the answered stream (%d) aborted", m, sse.ID)
	}
	a.sendText(`{"t":"res","id":%d,"status":200,"headers":[["content-type","text/plain"]]}`, pending.ID)
	a.sendChunk(pending.ID, "done")
	a.sendText(`{"t":"res_end","id":%d}`, pending.ID)
	resp := <-pendingc
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || err != nil || string(body) != "done" {
		t.Errorf("the request answered during the grace: %d %s %q %v; want 200 \"done\"", resp.StatusCode, resp.Status, body, err)
	}
	<-closed
	_, _ = io.Copy(io.Discard, stream.Body) // returns: the stream has ended
}

// A relayed request not yet answered when Close starts keeps its grace:
// its host answering during the grace, its caller gets the whole
// response, loopback and in process, even when the body follows the head
// by a moment (over loopback the head alone once ended it: an empty,
// complete-looking 200).
func TestCloseAnsweredDuringGraceKeepsBody(t *testing.T) {
	for _, loopback := range []bool{false, true} {
		t.Run(map[bool]string{false: "inprocess", true: "loopback"}[loopback], func(t *testing.T) {
			f := newRelayFixture(t, loopback)
			a := f.dial(t)
			pendingc := f.public(context.Background(), "GET", "", "", nil)
			pending := a.next()
			if pending.T != "req" {
				t.Fatalf("agent got %+v, want req", pending)
			}
			closed := make(chan struct{})
			go func() { _ = f.srv.Close(); close(closed) }()
			for !projectopstest.CloseBegun(f.srv) {
				time.Sleep(time.Millisecond)
			}
			a.sendText(`{"t":"res","id":%d,"status":200,"headers":[["content-type","text/plain"]]}`, pending.ID)
			resp := <-pendingc // the body follows once the caller has the head
			defer resp.Body.Close()
			a.sendChunk(pending.ID, "done")
			a.sendText(`{"t":"res_end","id":%d}`, pending.ID)
			body, err := io.ReadAll(resp.Body)
			if resp.StatusCode != 200 || err != nil || string(body) != "done" {
				t.Errorf("the request answered during the grace: %d %s %q %v; want 200 \"done\"", resp.StatusCode, resp.Status, body, err)
			}
			<-closed
		})
	}
}

// A relayed stream that Close cuts over loopback does not look complete
// to its caller: its connection is dropped, so reading the rest of the
// body fails, as when the service shuts down, rather than ending cleanly
// as if the host had finished the stream.
func TestCloseLoopbackCutStreamReadFails(t *testing.T) {
	f := newRelayFixture(t, true)
	a := f.dial(t)
	streamc := f.public(context.Background(), "GET", "", "", nil)
	sse := a.next()
	a.sendText(`{"t":"res","id":%d,"status":200,"headers":[["content-type","text/event-stream"]]}`, sse.ID)
	a.sendChunk(sse.ID, "data: one\n\n")
	stream := <-streamc
	defer stream.Body.Close()
	buf := make([]byte, len("data: one\n\n"))
	if _, err := io.ReadFull(stream.Body, buf); err != nil {
		t.Fatal(err)
	}
	closed := make(chan struct{})
	go func() { _ = f.srv.Close(); close(closed) }()
	if rest, err := io.ReadAll(stream.Body); err == nil {
		t.Errorf("the stream Close cut reads as complete (rest %q, clean EOF); want a read error", rest)
	}
	<-closed
}

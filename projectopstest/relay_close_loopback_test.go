package projectopstest_test

import (
	"context"
	"io"
	"testing"
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

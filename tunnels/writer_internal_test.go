package tunnels

import (
	"context"
	"errors"
	"testing"
)

// A handler that writes after it returned reaches its own finished writer:
// the write fails, and the recycled buffers serving the next response
// never see it.
func TestWriteAfterHandlerReturned(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // nothing is sent: the writers only buffer
	s := &session{}
	old := newResponseWriter(&stream{s: s, id: 1}, ctx)
	old.release()
	next := newResponseWriter(&stream{s: s, id: 2}, context.Background()) // live: only buffers, below a chunk
	defer next.release()
	if _, err := old.Write([]byte("late")); !errors.Is(err, errHandlerDone) {
		t.Fatalf("late Write: %v, want errHandlerDone", err)
	}
	old.Flush()
	if _, err := next.Write([]byte("fresh")); err != nil {
		t.Fatal(err)
	}
	if got := string(next.buf); got != "fresh" {
		t.Fatalf("next response buffers %q, want %q", got, "fresh")
	}
}

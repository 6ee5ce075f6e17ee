package tunnelwire

import (
	"context"
	"errors"
	"io"
	"net/http"
	"reflect"
	"testing"
	"time"
)

func TestCleanHeader(t *testing.T) {
	h := CleanHeader(http.Header{"Connection": {"keep-alive, X-Hop"}, "X-Hop": {"1"}, "Upgrade": {"ws"},
		"Transfer-Encoding": {"chunked"}, "Authorization": {"Bearer x"}, "Content-Type": {"a"}})
	if len(h) != 2 || h.Get("Authorization") == "" || h.Get("Content-Type") == "" {
		t.Errorf("CleanHeader = %v", h)
	}
}

func TestBodyOrderAndEnd(t *testing.T) {
	b := new(Body)
	go func() {
		for _, c := range []string{"a", "b", "c"} {
			b.Push(t.Context(), []byte(c))
		}
		b.Finish(nil)
	}()
	got, err := io.ReadAll(b)
	if err != nil || string(got) != "abc" {
		t.Fatalf("ReadAll = %q, %v", got, err)
	}
	// A consumer that is gone makes pushes drop instead of blocking.
	b = new(Body)
	_ = b.Close()
	done := make(chan struct{})
	go func() {
		for range QueueLen * 2 {
			b.Push(t.Context(), []byte("x"))
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Push blocked on a closed body")
	}
	b = new(Body)
	b.Push(t.Context(), []byte("x"))
	b.Finish(errors.New("cut"))
	if got, err := io.ReadAll(b); string(got) != "x" || err == nil {
		t.Errorf("cut body: %q, %v", got, err)
	}
}

// DecodeHead keeps encoding/json's leniency: a peer may send header

func TestClean(t *testing.T) {
	t.Parallel()
	plain := http.Header{"Content-Type": {"application/json"}}
	if got := Clean(plain); &got["Content-Type"][0] != &plain["Content-Type"][0] {
		t.Error("Clean copied a header with nothing to remove")
	}
	hop := http.Header{"Content-Type": {"application/json"}, "Connection": {"X-Drop"}, "X-Drop": {"1"}, "Te": {"trailers"}}
	got := Clean(hop)
	if len(got) != 1 || got.Get("Content-Type") != "application/json" || len(hop) != 4 {
		t.Errorf("Clean = %v (input now %v)", got, hop)
	}
	if Clean(nil) == nil {
		t.Error("Clean(nil) = nil")
	}
	// Names in another case (a handler may set them in the map) are
	// hop-by-hop all the same.
	lower := http.Header{"content-type": {"a"}, "connection": {"x-drop"}, "X-Drop": {"1"},
		"transfer-encoding": {"chunked"}, "keep-alive": {"timeout=5"}}
	if got := Clean(lower); !reflect.DeepEqual(got, http.Header{"content-type": {"a"}}) {
		t.Errorf("Clean = %v", got)
	}
}

// A full body makes the pusher wait for the consumer (backpressure), and
// the wait ends with the pusher's context or the consumer's Close.
func TestBodyBackpressure(t *testing.T) {
	t.Parallel()
	b := new(Body)
	for i := range QueueLen {
		if !b.Push(t.Context(), []byte{byte(i)}) {
			t.Fatal("push into a body with room failed")
		}
	}
	pushed := make(chan bool, 1)
	go func() { pushed <- b.Push(t.Context(), []byte{QueueLen}) }()
	select {
	case <-pushed:
		t.Fatal("a push into a full body did not wait")
	case <-time.After(50 * time.Millisecond):
	}
	for i := range QueueLen + 1 {
		c, err := b.Next(t.Context())
		if err != nil || len(c) != 1 || c[0] != byte(i) {
			t.Fatalf("chunk %d = %v, %v", i, c, err)
		}
		if i == 0 && !<-pushed {
			t.Fatal("the waiting push failed once there was room")
		}
	}
	for range QueueLen {
		b.Push(t.Context(), []byte("x"))
	}
	ctx, cancel := context.WithCancel(t.Context())
	go func() { time.Sleep(10 * time.Millisecond); cancel() }()
	if b.Push(ctx, []byte("y")) {
		t.Error("a push whose context ended reports success")
	}
	go func() { time.Sleep(10 * time.Millisecond); _ = b.Close() }()
	if b.Push(t.Context(), []byte("z")) {
		t.Error("a push into a closed body reports success")
	}
	if _, err := b.Next(t.Context()); err != io.ErrClosedPipe {
		t.Errorf("Next after Close = %v", err)
	}
}

// Add never waits, whatever the consumer does, and keeps the bytes queued
// within its limit; what the consumer takes makes room again.
func TestBodyAdd(t *testing.T) {
	t.Parallel()
	b := new(Body)
	for range 4 * QueueLen {
		if err := b.Add([]byte("0123456789"), 40*QueueLen); err != nil {
			t.Fatal(err)
		}
	}
	if err := b.Add([]byte("x"), 40*QueueLen); err != ErrTooLarge {
		t.Fatalf("Add past the limit = %v, want ErrTooLarge", err)
	}
	if c, err := b.Next(t.Context()); err != nil || string(c) != "0123456789" {
		t.Fatalf("Next = %q, %v", c, err)
	}
	if err := b.Add([]byte("0123456789"), 40*QueueLen); err != nil {
		t.Fatalf("Add after a chunk was taken = %v", err)
	}
	b.Finish(nil)
	got, err := io.ReadAll(b)
	if err != nil || len(got) != 40*QueueLen {
		t.Fatalf("ReadAll = %d bytes, %v", len(got), err)
	}
	if err := b.Add([]byte("late"), 1); err != nil {
		t.Errorf("Add after the end = %v, want it dropped", err)
	}
}

// AddPaced past its limit waits while the consumer keeps up, however long
// that takes in all; it cuts a consumer that stopped, or that reads slower
// than limit bytes a second, once it has waited grace.
func TestBodyAddPaced(t *testing.T) {
	t.Parallel()
	const grace = 200 * time.Millisecond
	const limit = 1000 // bytes, and bytes a second
	chunk := make([]byte, 100)
	// reader takes a chunk every pause until the body ends, and returns the
	// bytes it took.
	reader := func(b *Body, pause time.Duration) chan int {
		done := make(chan int, 1)
		go func() {
			n := 0
			for {
				c, err := b.Next(context.Background())
				if err != nil {
					done <- n
					return
				}
				n += len(c)
				time.Sleep(pause)
			}
		}()
		return done
	}
	fill := func(b *Body) {
		for range limit / len(chunk) {
			if err := b.AddPaced(chunk, limit, grace); err != nil {
				t.Fatal(err)
			}
		}
	}

	// 10 KB/s, ten times the floor (a loaded machine's longer sleeps
	// leave it well above): 30 chunks past the limit, 300 ms, none refused.
	fast := new(Body)
	fill(fast)
	done := reader(fast, 10*time.Millisecond)
	for i := range 30 {
		if err := fast.AddPaced(chunk, limit, grace); err != nil {
			t.Fatalf("chunk %d to a consumer that keeps up: %v", i, err)
		}
	}
	fast.Finish(nil)
	if n := <-done; n != 4000 {
		t.Fatalf("the consumer read %d bytes, want 4000", n)
	}

	// 667 B/s: steady, under the floor, cut once it has held the sender
	// for grace.
	slow := new(Body)
	fill(slow)
	done = reader(slow, 150*time.Millisecond)
	start := time.Now()
	var err error
	for range 30 {
		if err = slow.AddPaced(chunk, limit, grace); err != nil {
			break
		}
	}
	if err != ErrTooLarge {
		t.Fatalf("AddPaced to a consumer under the floor = %v, want ErrTooLarge", err)
	}
	if d := time.Since(start); d < grace {
		t.Errorf("gave up after %v, before grace (%v)", d, grace)
	}
	_ = slow.Close()
	<-done

	stopped := new(Body)
	fill(stopped)
	start = time.Now()
	if err := stopped.AddPaced(chunk, limit, grace); err != ErrTooLarge {
		t.Fatalf("AddPaced to a consumer that reads nothing = %v, want ErrTooLarge", err)
	}
	if d := time.Since(start); d < grace {
		t.Errorf("gave up after %v, before grace (%v)", d, grace)
	}

	closed := new(Body)
	fill(closed)
	go func() { time.Sleep(grace / 4); _ = closed.Close() }()
	if err := closed.AddPaced(chunk, limit, time.Hour); err != nil {
		t.Errorf("AddPaced when the consumer leaves = %v, want the chunk dropped", err)
	}
}

// A pace episode that ended (the sender got room and stopped sending)
// must not be charged for a later quiet spell in which nobody waited: a
// consumer that paused while the sender was idle too, then is found a
// little behind by the next burst, is cut at once, with no grace at all.
func TestBodyAddPacedCountsOnlyWaits(t *testing.T) {
	t.Parallel()
	const grace = 500 * time.Millisecond // room for a reader delayed on a busy machine
	const limit = 1000
	chunk := make([]byte, 100)
	b := new(Body)
	for range limit / len(chunk) {
		if err := b.AddPaced(chunk, limit, grace); err != nil {
			t.Fatal(err)
		}
	}
	// The queue is full: the next chunk waits until the consumer takes one
	// (a brief wait, well within grace).
	go func() {
		time.Sleep(20 * time.Millisecond)
		_, _ = b.Next(context.Background())
	}()
	if err := b.AddPaced(chunk, limit, grace); err != nil {
		t.Fatalf("first wait: %v", err)
	}
	// The consumer takes one more chunk (queued 900 > limit/2), then both
	// sides are quiet for a while: nobody is held.
	if _, err := b.Next(context.Background()); err != nil {
		t.Fatal(err)
	}
	time.Sleep(3 * grace)
	// The sender resumes: one chunk fits, the next waits. The consumer
	// starts reading promptly, 10x faster than the floor.
	if err := b.AddPaced(chunk, limit, grace); err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			if _, err := b.Next(context.Background()); err != nil {
				return
			}
			time.Sleep(10 * time.Millisecond)
		}
	}()
	start := time.Now()
	err := b.AddPaced(chunk, limit, grace)
	if err != nil {
		t.Fatalf("AddPaced = %v after %v of waiting on a consumer that reads at 10x the floor (the stale episode's idle spell was charged to it)", err, time.Since(start))
	}
	_ = b.Close()
}

// Abort drops what is queued: the consumer's next read is the error, not
// the chunks before it.
func TestBodyAbort(t *testing.T) {
	t.Parallel()
	b := new(Body)
	_ = b.Add([]byte("queued"), 1<<20)
	cut := errors.New("cut")
	b.Abort(cut)
	if c, err := b.Next(t.Context()); err != cut || c != nil {
		t.Fatalf("Next after Abort = %q, %v; want the error alone", c, err)
	}
	b.Abort(errors.New("again")) // only the first end counts
	b.Finish(nil)
	if _, err := b.Next(t.Context()); err != cut {
		t.Errorf("Next = %v, want the first error", err)
	}
}

// Abort drops the chunks of a body that has ended but was not read yet
// (the edge gave up on the stream after its req_end): the consumer gets
// the error instead of a body read as whole. One already read keeps its
// end.
func TestBodyAbortAfterEnd(t *testing.T) {
	t.Parallel()
	b := new(Body)
	_ = b.Add([]byte("queued"), 1<<20)
	b.Finish(nil)
	cut := errors.New("cut")
	b.Abort(cut)
	if c, err := b.Next(t.Context()); err != cut || c != nil {
		t.Fatalf("Next after Abort of an ended body = %q, %v; want the error alone", c, err)
	}
	read := new(Body)
	_ = read.Add([]byte("read"), 1<<20)
	read.Finish(nil)
	if _, err := read.Next(t.Context()); err != nil {
		t.Fatal(err)
	}
	read.Abort(cut)
	if _, err := read.Next(t.Context()); err != io.EOF {
		t.Errorf("Next after Abort of a body read to its end = %v, want io.EOF", err)
	}
}

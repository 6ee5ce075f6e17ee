package tunnelwire

import (
	"context"
	"errors"
	"io"
	"sync"
	"time"
)

// Body is a stream's body as it arrives in chunk messages: a bounded queue the
// session's reader loop feeds and one consumer reads from. Push holds at
// most QueueLen chunks and then makes the reader wait for the consumer
// (backpressure on the WebSocket, for every stream); Add never waits and
// bounds the bytes queued instead, for a body whose sender caps it or
// whose stream is cut past the bound; AddPaced waits past its bound while
// the consumer keeps reading, and cuts only one too slow to keep up. Either
// way a consumer that is gone makes what comes next drop.
//
// Every relayed request makes one on each side, and most carry one chunk
// that has arrived, with the end, before the consumer looks: the queue is
// a slice under a mutex with room for a few chunks inline, and a side that
// must wait does so on a one-slot wake-up channel made when it first waits
// (re-checking the state after every wake-up), instead of channels sized
// for the worst case made for every body. The zero Body is empty and ready
// to use, so a stream can hold one by value.
type Body struct {
	mu     sync.Mutex
	q      [][]byte // queued chunks from head on
	head   int
	inline [4][]byte
	err    error // the Finish error (io.EOF for a clean end)
	ended  bool
	closed bool          // the consumer is gone
	wake   chan struct{} // one slot, made when the consumer must wait
	room   chan struct{} // one slot, made when a push must wait for room

	cur []byte // Read's unread part of a chunk

	queued int64 // bytes queued by Add and not yet taken

	taken      int64         // bytes the consumer has taken, for AddPaced's rate
	pacing     bool          // AddPaced has waited since the consumer last caught up
	paceWaited time.Duration // how long, in all
	paceTaken  int64         // taken when the first of those waits began
}

// ErrTooLarge is a body whose queued bytes would pass Add's limit.
var ErrTooLarge = errors.New("tunnel: body too large")

// signal wakes a waiter on c, if there is a channel and it is not already
// signalled.
func signal(c chan struct{}) {
	if c == nil {
		return
	}
	select {
	case c <- struct{}{}:
	default:
	}
}

// Push queues a chunk, waiting for room. It reports false when the consumer
// is gone, the body has ended or ctx is done (the chunk is dropped).
func (b *Body) Push(ctx context.Context, chunk []byte) bool {
	b.mu.Lock()
	for {
		if b.ended || b.closed {
			b.mu.Unlock()
			return false
		}
		if len(b.q)-b.head < QueueLen {
			break
		}
		if b.await(ctx, &b.room) != nil {
			return false
		}
		b.mu.Lock()
	}
	b.enqueue(chunk)
	return true
}

// Add queues a chunk without waiting, however many are queued, as long as
// the bytes queued stay within limit; past it, Add returns ErrTooLarge
// and queues nothing. It is for a body whose sender caps it (the edge
// relays at most its MaxReqBody of a request): the reader never waits for
// this body's consumer, so a handler that does not read its body holds up
// no other stream. A chunk for a consumer that is gone or a body that has
// ended is dropped.
func (b *Body) Add(chunk []byte, limit int64) error {
	b.mu.Lock()
	switch {
	case b.ended || b.closed:
		b.mu.Unlock()
		return nil
	case b.queued+int64(len(chunk)) > limit:
		b.mu.Unlock()
		return ErrTooLarge
	}
	b.queued += int64(len(chunk))
	b.enqueue(chunk)
	return nil
}

// AddPaced is Add for a body whose consumer reads as fast as it can but
// may lag a moment behind its sender (a caller on the other side of a
// busy machine): past limit it waits for the consumer to take chunks
// instead of refusing, each wait ending once the chunk fits. The waits
// since the consumer last caught up (the bytes queued at half the limit or
// under when a chunk is added) add up; once they reach grace, a consumer
// that took less than limit bytes a second over them is cut (ErrTooLarge).
// So a consumer that reads as fast as a caller can is never cut, and one
// that stopped, or reads slower than that, holds the sender (a session's
// reader, and every stream behind it) for about grace in all, then is cut.
// Time nobody waited (both sides quiet) is not counted against it.
func (b *Body) AddPaced(chunk []byte, limit int64, grace time.Duration) error {
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	b.mu.Lock()
	for {
		switch {
		case b.ended || b.closed:
			b.mu.Unlock()
			return nil
		case b.queued+int64(len(chunk)) <= limit || b.queued == 0: // a chunk over limit alone still goes
			if b.queued <= limit/2 {
				b.paceWaited, b.pacing = 0, false // caught up: later waits count afresh
			}
			b.queued += int64(len(chunk))
			b.enqueue(chunk)
			return nil
		}
		if !b.pacing {
			b.pacing, b.paceTaken = true, b.taken
		}
		if w := b.paceWaited; w >= grace && float64(b.taken-b.paceTaken) < float64(limit)*w.Seconds() {
			b.mu.Unlock()
			return ErrTooLarge
		}
		if b.room == nil {
			b.room = make(chan struct{}, 1)
		}
		room := b.room
		d := max(grace-b.paceWaited, grace/4) // look again at grace, then now and then while it reads
		b.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(d)
		} else {
			timer.Reset(d)
		}
		began := time.Now()
		select {
		case <-room:
		case <-timer.C:
		}
		b.mu.Lock()
		b.paceWaited += time.Since(began)
	}
}

// enqueue, called with b.mu held and room in the queue, queues chunk,
// releases b.mu and wakes the consumer.
func (b *Body) enqueue(chunk []byte) {
	switch {
	case b.q == nil:
		b.q = b.inline[:0]
	case len(b.q) == cap(b.q) && b.head > 0: // slide the queue back to the start
		n := copy(b.q, b.q[b.head:])
		clear(b.q[n:])
		b.q, b.head = b.q[:n], 0
	}
	b.q = append(b.q, chunk)
	wake := b.wake
	b.mu.Unlock()
	signal(wake)
}

// Finish ends the body: readers get io.EOF after the queued chunks when err
// is nil, else err. Only the first call counts.
func (b *Body) Finish(err error) {
	b.mu.Lock()
	if b.ended {
		b.mu.Unlock()
		return
	}
	if err == nil {
		err = io.EOF
	}
	b.err, b.ended = err, true
	b.unlockWaking()
}

// Abort ends the body at once with err: the chunks still queued are
// dropped, and the consumer's next read returns err. A body that has
// ended and has nothing queued keeps its end (its consumer has had it
// all); one with chunks still queued has them dropped too, and err
// replaces a clean end, so a body cut short never reads as whole.
func (b *Body) Abort(err error) {
	b.mu.Lock()
	queued := b.head < len(b.q)
	if b.ended && !queued {
		b.mu.Unlock()
		return
	}
	clear(b.q)
	b.q, b.head, b.queued = b.q[:0], 0, 0
	if !b.ended || b.err == io.EOF {
		b.err = err
	}
	b.ended = true
	b.unlockWaking()
}

// unlockWaking releases b.mu and wakes whichever side waits, to look at
// the state again.
func (b *Body) unlockWaking() {
	wake, room := b.wake, b.room
	b.mu.Unlock()
	signal(wake)
	signal(room)
}

// Pending reports whether Next would return without waiting: a chunk is
// queued or the body has ended. A relay flushes what it wrote before it
// waits, and only then.
func (b *Body) Pending() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.q) > b.head || b.ended || b.closed
}

// Next returns the next chunk, waiting for one; at the end it returns the
// Finish error (io.EOF for a clean end), or ctx's error.
func (b *Body) Next(ctx context.Context) ([]byte, error) {
	for {
		b.mu.Lock()
		if b.head < len(b.q) {
			c := b.q[b.head]
			b.q[b.head] = nil
			b.head++
			b.queued = max(b.queued-int64(len(c)), 0) // Push's chunks were never counted
			b.taken += int64(len(c))
			if b.head == len(b.q) {
				b.q, b.head = b.q[:0], 0
			}
			room := b.room
			b.mu.Unlock()
			signal(room)
			return c, nil
		}
		switch {
		case b.ended: // every push happened before Finish: the queue is drained
			err := b.err
			b.mu.Unlock()
			return nil, err
		case b.closed:
			b.mu.Unlock()
			return nil, io.ErrClosedPipe
		}
		if err := b.await(ctx, &b.wake); err != nil {
			return nil, err
		}
	}
}

// await, called with b.mu held, makes the one-slot channel *c if it is not
// there yet, releases b.mu and waits for a signal on it or for ctx to end,
// whose error it returns. Either way b.mu is released.
func (b *Body) await(ctx context.Context, c *chan struct{}) error {
	if *c == nil {
		*c = make(chan struct{}, 1)
	}
	ch := *c
	b.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Read implements io.Reader.
func (b *Body) Read(p []byte) (int, error) {
	if len(b.cur) == 0 {
		c, err := b.Next(context.Background())
		if err != nil {
			return 0, err
		}
		b.cur = c
	}
	n := copy(p, b.cur)
	b.cur = b.cur[n:]
	return n, nil
}

// Close implements io.Closer: the consumer is gone; pending and later pushes
// are dropped.
func (b *Body) Close() error {
	b.mu.Lock()
	b.closed = true
	b.queued = 0
	clear(b.q)
	b.q, b.head = b.q[:0], 0
	b.unlockWaking()
	return nil
}

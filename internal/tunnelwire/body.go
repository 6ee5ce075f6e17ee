package tunnelwire

import (
	"context"
	"io"
	"sync"
)

// Body is a stream's body as it arrives in Data frames: a bounded queue the
// session's reader loop pushes into and one consumer reads from. It never
// holds more than QueueLen chunks, so a whole body is never buffered; a
// consumer slower than the network makes the reader wait (backpressure on
// the WebSocket), and a consumer that is gone makes pushes drop.
type Body struct {
	ch     chan []byte
	ended  chan struct{} // closed by Finish
	closed chan struct{} // closed by Close (consumer gone)

	endOnce, closeOnce sync.Once
	err                error // set before ended is closed
	cur                []byte
}

// NewBody returns an empty body.
func NewBody() *Body {
	return &Body{ch: make(chan []byte, QueueLen), ended: make(chan struct{}), closed: make(chan struct{})}
}

// Push queues a chunk, waiting for room. It reports false when the consumer
// is gone, the body has ended or ctx is done (the chunk is dropped).
func (b *Body) Push(ctx context.Context, chunk []byte) bool {
	select {
	case <-b.ended:
		return false
	default:
	}
	select {
	case b.ch <- chunk:
		return true
	case <-b.closed:
	case <-b.ended:
	case <-ctx.Done():
	}
	return false
}

// Finish ends the body: readers get io.EOF after the queued chunks when err
// is nil, else err. Only the first call counts.
func (b *Body) Finish(err error) {
	b.endOnce.Do(func() {
		if err == nil {
			err = io.EOF
		}
		b.err = err
		close(b.ended)
	})
}

// Pending reports whether Next would return without waiting: a chunk is
// queued or the body has ended. A relay flushes what it wrote before it
// waits, and only then.
func (b *Body) Pending() bool {
	if len(b.ch) > 0 {
		return true
	}
	select {
	case <-b.ended:
		return true
	default:
		return false
	}
}

// Ended is closed once Finish has been called.
func (b *Body) Ended() <-chan struct{} { return b.ended }

// Next returns the next chunk, waiting for one; at the end it returns the
// Finish error (io.EOF for a clean end), or ctx's error.
func (b *Body) Next(ctx context.Context) ([]byte, error) {
	select {
	case c := <-b.ch:
		return c, nil
	default:
	}
	select {
	case c := <-b.ch:
		return c, nil
	case <-b.ended:
		// Every push happened before Finish: drain what is queued first.
		select {
		case c := <-b.ch:
			return c, nil
		default:
			return nil, b.err
		}
	case <-b.closed:
		return nil, io.ErrClosedPipe
	case <-ctx.Done():
		return nil, ctx.Err()
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
	b.closeOnce.Do(func() { close(b.closed) })
	return nil
}

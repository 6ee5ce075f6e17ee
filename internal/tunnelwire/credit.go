package tunnelwire

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"sync"
)

// Credit (both ways) returns a stream's body window to its sender: the
// payload is the number of the stream's Data frames the receiver has
// consumed, 4 bytes big-endian. Peers use it once both said they read it
// (FeatureCredit on the host's dial, in the Ready payload from the relay).
// A sender then has at most Window Data frames of a stream unacknowledged,
// so a receiver never holds more than Window chunks of any stream, and its
// reader never waits for one stream's consumer: a handler that does not
// read its body, or a public caller that stops reading, holds up its own
// stream and no other.
const Credit Kind = 8

// FeatureCredit is the Credit frame feature.
const FeatureCredit = "credit"

// Window is how many Data frames of a stream a sender may have
// unacknowledged. It is half a Body's QueueLen: a relay's response body
// also queues its head's marker.
const Window = QueueLen / 2

// ErrWindow is a peer that sent more Data frames than its window allows.
var ErrWindow = errors.New("tunnel: stream window exceeded")

// errCreditsClosed ends a wait for credit when the stream is over.
var errCreditsClosed = errors.New("tunnel: stream ended")

// CreditPayload is a Credit frame's payload for n frames.
func CreditPayload(n int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(n)) }

// CreditCount reads a Credit frame's payload.
func CreditCount(p []byte) (int, error) {
	if len(p) != 4 {
		return 0, fmt.Errorf("%w: credit of %d bytes", ErrMalformed, len(p))
	}
	return int(binary.BigEndian.Uint32(p)), nil
}

// Credits is a sender's window for one stream: Window Data frames, plus
// what the receiver has returned. The zero Credits is a full window.
type Credits struct {
	mu      sync.Mutex
	used    int // Data frames sent
	granted int // returned by the receiver
	closed  bool
	wake    chan struct{} // one slot, made when a sender must wait
}

// Take uses n frames of the window without waiting: frames sent together
// with the head, which fit a fresh window.
func (c *Credits) Take(n int) {
	c.mu.Lock()
	c.used += n
	c.mu.Unlock()
}

// TryAcquire uses room for one Data frame if there is some.
func (c *Credits) TryAcquire() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || c.used >= Window+c.granted {
		return false
	}
	c.used++
	return true
}

// Acquire waits for room for one Data frame and uses it. It fails when ctx
// ends or the stream is over (Close).
func (c *Credits) Acquire(ctx context.Context) error {
	for {
		c.mu.Lock()
		switch {
		case c.closed:
			c.mu.Unlock()
			return errCreditsClosed
		case c.used < Window+c.granted:
			c.used++
			c.mu.Unlock()
			return nil
		}
		if c.wake == nil {
			c.wake = make(chan struct{}, 1)
		}
		wake := c.wake
		c.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Add returns n frames to the window.
func (c *Credits) Add(n int) {
	c.mu.Lock()
	c.granted += n
	wake := c.wake
	c.mu.Unlock()
	signal(wake)
}

// Close ends the stream's sending: a waiting Acquire, and every later one,
// fails.
func (c *Credits) Close() {
	c.mu.Lock()
	c.closed = true
	wake := c.wake
	c.mu.Unlock()
	signal(wake)
}

package tunnelwire

import (
	"context"
	"io"
	"net/http"
	"sync"

	"github.com/coder/websocket"
)

// Writer writes messages to a WebSocket for many goroutines at once. The
// messages of one Send go out together and in order, and messages that
// callers hand in while a write is under way are written together next
// ("group commit"): with a Cork under the connection, a round is one
// write on the socket, however many messages it holds. (Yielding before a
// round so that more senders join it, which paid with the batch frames of
// the protocol this replaced, measured 1–3 points slower here.)
type Writer struct {
	conn *websocket.Conn
	cork *Cork // nil: every message is its own write

	mu       sync.Mutex
	cond     sync.Cond
	pending  []Batch // the batches of round started+1
	busy     bool    // a round is being written
	started  uint64  // rounds taken by a writer
	finished uint64  // rounds written (or failed)
	err      error   // the first write failure: the connection is done
}

// NewWriter returns a Writer on conn; cork, when not nil, is the
// connection under conn.
func NewWriter(conn *websocket.Conn, cork *Cork) *Writer {
	w := &Writer{conn: conn, cork: cork}
	w.cond.L = &w.mu
	return w
}

// Send writes the batches' messages, in order and after every message
// handed in before, and returns once they are written; the batches are the
// caller's again then. The caller whose messages are next either writes
// them with everything queued beside them, or waits while another caller's
// write is under way and then writes the next round; no caller writes for
// others longer than one round. A write failure fails every later Send.
// Writes carry no context (a write cut short would break the connection
// for everyone, and a cancellable one costs a timer per write): a write to
// a peer that stopped reading ends when the connection is closed, which is
// how both ends stop a session.
func (w *Writer) Send(batches ...Batch) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.pending = append(w.pending, batches...)
	round := w.started + 1 // pending messages always go out in the next round
	for w.finished < round && w.err == nil {
		if w.busy {
			w.cond.Wait()
			continue
		}
		out := w.pending
		w.pending = nil
		w.started++
		w.busy = true
		w.mu.Unlock()
		err := w.write(out)
		w.mu.Lock()
		if err != nil && w.err == nil {
			w.err = err
		}
		w.finished++
		w.busy = false
		w.cond.Broadcast()
	}
	return w.err
}

// write sends one round, held in the cork until its last message.
func (w *Writer) write(batches []Batch) error {
	ctx := context.Background()
	if w.cork != nil {
		w.cork.Hold()
	}
	var err error
	for _, g := range batches {
		g.messages(func(text bool, msg []byte) {
			if err != nil {
				return
			}
			typ := websocket.MessageBinary
			if text {
				typ = websocket.MessageText
			}
			err = w.conn.Write(ctx, typ, msg)
		})
	}
	if w.cork != nil {
		if rerr := w.cork.Release(); err == nil {
			err = rerr
		}
	}
	return err
}

// Cork is the connection under a WebSocket: it holds what the WebSocket
// writes while a Writer writes a round and writes it out at once when the
// round is over. Anything the WebSocket writes on its own (a pong, a
// close) goes straight through when no round is under way, and with the
// round otherwise. Each message is complete WebSocket framing, so the
// peer cannot tell.
type Cork struct {
	rwc io.ReadWriteCloser

	// BeforeRead, when set (before the connection is read), is called
	// before every read on the connection: the WebSocket's buffer is
	// empty, so its reader may be about to wait.
	BeforeRead func()

	mu   sync.Mutex // held while writing to rwc: writes stay in order
	held bool
	buf  []byte
}

// NewCork returns a Cork on rwc.
func NewCork(rwc io.ReadWriteCloser) *Cork { return &Cork{rwc: rwc} }

// Read implements io.Reader.
func (c *Cork) Read(p []byte) (int, error) {
	if c.BeforeRead != nil {
		c.BeforeRead()
	}
	return c.rwc.Read(p)
}

// Close implements io.Closer.
func (c *Cork) Close() error { return c.rwc.Close() }

// Write implements io.Writer: held, or written through.
func (c *Cork) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held {
		c.buf = append(c.buf, p...)
		return len(p), nil
	}
	return c.rwc.Write(p)
}

// Hold starts holding writes.
func (c *Cork) Hold() {
	c.mu.Lock()
	c.held = true
	c.mu.Unlock()
}

// Release writes what was held, in one write, and stops holding.
func (c *Cork) Release() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.held = false
	if len(c.buf) == 0 {
		return nil
	}
	_, err := c.rwc.Write(c.buf)
	if cap(c.buf) > 4*MaxMessage {
		c.buf = nil // an unusually large round is not kept
	} else {
		c.buf = c.buf[:0]
	}
	return err
}

// UpgradeTransport is an http.RoundTripper for a WebSocket dial: it puts a
// Cork under the connection the dial upgrades (a 101 response's body) and
// keeps it, for the dialing side's Writer and for cutting a stalled close
// handshake short. Use one per dial.
type UpgradeTransport struct {
	Base http.RoundTripper // nil: http.DefaultTransport
	Cork *Cork             // set by a 101 response
}

// RoundTrip implements http.RoundTripper.
func (t *UpgradeTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	base := t.Base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(r)
	if err == nil && resp.StatusCode == http.StatusSwitchingProtocols {
		if rwc, ok := resp.Body.(io.ReadWriteCloser); ok {
			t.Cork = NewCork(rwc)
			resp.Body = t.Cork
		}
	}
	return resp, err
}

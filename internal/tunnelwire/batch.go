package tunnelwire

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"

	"github.com/coder/websocket"
)

// Batch (both ways, id 0) carries several frames in one WebSocket message:
// its payload is a sequence of frames, each a 4-byte big-endian length and
// the frame (kind, stream id, payload). A peer sends batches only when the
// other side said it reads them (FeaturesHeader on the host's dial, the
// Ready payload from the relay): one message, and one write, instead of a
// message per part of a request or response.
const Batch Kind = 7

// FeaturesHeader is sent by a host on its dial and lists the optional
// features it supports, comma separated; the relay answers with the ones it
// will use as the Ready frame's payload.
const FeaturesHeader = "X-Tunnel-Features"

// FeatureBatch is the Batch frame feature.
const FeatureBatch = "batch"

// HasFeature reports whether list (a header value or a Ready payload)
// names feature.
func HasFeature(list, feature string) bool {
	for f := range strings.SplitSeq(list, ",") {
		if strings.TrimSpace(f) == feature {
			return true
		}
	}
	return false
}

// Offers reports whether a host's dial request lists feature.
func Offers(h http.Header, feature string) bool {
	for _, v := range h.Values(FeaturesHeader) {
		if HasFeature(v, feature) {
			return true
		}
	}
	return false
}

// SplitBatch calls fn with each frame of a Batch payload, in order. The
// frames' payloads alias p.
func SplitBatch(p []byte, fn func(Frame) error) error {
	for len(p) > 0 {
		if len(p) < 4 {
			return fmt.Errorf("%w: batch length cut short", ErrMalformed)
		}
		n := binary.BigEndian.Uint32(p)
		p = p[4:]
		if uint64(n) > uint64(len(p)) {
			return fmt.Errorf("%w: batch frame of %d bytes in %d", ErrMalformed, n, len(p))
		}
		f, err := Decode(p[:n])
		if err != nil {
			return err
		}
		if f.Kind == Batch {
			return fmt.Errorf("%w: nested batch", ErrMalformed)
		}
		if err := fn(f); err != nil {
			return err
		}
		p = p[n:]
	}
	return nil
}

// Writer writes frames to a WebSocket for many goroutines at once. The
// frames of one Send go out together, and frames that callers hand in while
// a write is under way are written together next ("group commit"): with
// batching on, that is one message and one write for all of them, instead
// of one per frame. Without batching every frame is its own message, in
// the same order.
type Writer struct {
	conn *websocket.Conn

	mu       sync.Mutex
	cond     sync.Cond
	batch    bool
	pending  []Group // the groups of round started+1
	busy     bool    // a round is being written
	started  uint64  // rounds taken by a writer
	finished uint64  // rounds written (or failed)
	err      error   // the first write failure: the connection is done
	buf      []byte  // the batch message buffer, used by the round's writer only
}

// NewWriter returns a Writer on conn, batching when batch is set.
func NewWriter(conn *websocket.Conn, batch bool) *Writer {
	w := &Writer{conn: conn, batch: batch}
	w.cond.L = &w.mu
	return w
}

// SetBatch turns batching on or off (once the peer said it reads batches).
func (w *Writer) SetBatch(on bool) {
	w.mu.Lock()
	w.batch = on
	w.mu.Unlock()
}

// Send writes the groups' frames, in order and after every frame handed in
// before, and returns once they are written; the groups are the caller's
// again then. The caller whose frames are next either writes them with
// everything queued beside them, or waits while another caller's write is
// under way and then writes the next round; no caller writes for others
// longer than one round. A write failure fails every later Send. Writes
// carry no context (a write cut short would break the connection for
// everyone, and a cancellable one costs a timer per write): a write to a
// peer that stopped reading ends when the connection is closed, which is
// how both ends stop a session.
func (w *Writer) Send(groups ...Group) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.pending = append(w.pending, groups...)
	round := w.started + 1 // pending frames always go out in the next round
	for w.finished < round && w.err == nil {
		if w.busy {
			w.cond.Wait()
			continue
		}
		if w.batch {
			// Let goroutines that are about to send join this round: one
			// write for all of them instead of one each.
			w.busy = true
			w.mu.Unlock()
			runtime.Gosched()
			w.mu.Lock()
		}
		out, batch := w.pending, w.batch
		w.pending = nil
		w.started++
		w.busy = true
		w.mu.Unlock()
		err := w.write(out, batch)
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

// write sends one round. Without batching each frame is a message. With
// it, a lone group that fits one message goes out in place; otherwise the
// frames are packed into Batch messages of at most MaxMessage bytes, a
// frame alone as itself.
func (w *Writer) write(groups []Group, batch bool) error {
	ctx := context.Background()
	var err error
	send := func(msg []byte) {
		if err == nil {
			err = w.conn.Write(ctx, websocket.MessageBinary, msg)
		}
	}
	if !batch {
		for _, g := range groups {
			g.entries(func(e []byte) { send(e[4:]) })
		}
		return err
	}
	if len(groups) == 1 && len(groups[0]) <= MaxMessage && !groups[0].Empty() {
		g := groups[0]
		if first := 4 + int(binary.BigEndian.Uint32(g[HeaderLen:])); HeaderLen+first == len(g) {
			send(g[HeaderLen+4:]) // one frame: itself
		} else {
			g[0] = byte(Batch)
			binary.BigEndian.PutUint32(g[1:], 0)
			send(g)
		}
		return err
	}
	msg, n := w.buf[:0], 0
	flush := func() {
		switch n {
		case 0:
			return
		case 1:
			send(msg[HeaderLen+4:])
		default:
			send(msg)
		}
		msg, n = msg[:0], 0
	}
	for _, g := range groups {
		g.entries(func(e []byte) {
			if n > 0 && len(msg)+len(e) > MaxMessage {
				flush()
			}
			if n == 0 {
				msg = append(msg, byte(Batch), 0, 0, 0, 0)
			}
			msg = append(msg, e...)
			n++
		})
	}
	flush()
	if cap(msg) <= 2*MaxMessage {
		w.buf = msg[:0] // a write has copied the message when it returns
	}
	return err
}

package relay

import (
	"context"
	"errors"
	"io"
	"net/http"
	"slices"
	"sync"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// ErrHeadersTooLarge is a request whose head does not fit one frame.
var ErrHeadersTooLarge = errors.New("relay: request headers too large to relay")

// UnreachableError is a request the tunnel host could not take: none is
// connected, it disconnected, or it failed the request before answering.
type UnreachableError struct{ Msg string }

// Error implements error.
func (e *UnreachableError) Error() string { return "relay: " + e.Msg }

// Forward relays one request over the session and streams the response
// back. A failure before the response starts is returned, for the caller to
// answer (an *UnreachableError, or ErrHeadersTooLarge); once the head is
// written, a session lost mid-response drops the public connection, so the
// caller's client sees the failure.
func (rs *Session) Forward(w http.ResponseWriter, r *http.Request, h *tunnelwire.Head, body []byte) error {
	id, st, ok := rs.open()
	if !ok {
		return &UnreachableError{"No tunnel host is connected"}
	}
	defer rs.forget(id)
	if err := rs.sendRequest(r.Context(), id, st, h, body); err != nil {
		return err
	}
	// Every wait below ends when the public caller goes away, and then the
	// host hears of it: one check on the way out instead of a callback
	// registered on the context of every request.
	ctx := r.Context()
	gone := false // a write to the caller failed
	defer func() {
		if gone || ctx.Err() != nil {
			_ = rs.send(tunnelwire.Group(nil).Append(tunnelwire.Cancel, id, nil))
		}
	}()
	if _, err := st.body.Next(ctx); err != nil { // the head's marker
		if ctx.Err() != nil {
			return nil
		}
		return &UnreachableError{"The tunnel host failed the request"}
	}
	head := st.head
	if head.Status < 200 || head.Status > 999 { // net/http panics on a status outside 100–999
		return &UnreachableError{"The tunnel host sent an invalid response status"}
	}
	for k, v := range tunnelwire.Clean(head.Header) {
		w.Header()[k] = v
	}
	w.WriteHeader(head.Status)
	var rc *http.ResponseController // made at the first flush: most responses need none
	flush := func() {
		if rc == nil {
			rc = http.NewResponseController(w)
		}
		_ = rc.Flush()
	}
	for {
		if !st.body.Pending() {
			flush() // stream what was written before waiting for more
		}
		chunk, err := st.body.Next(ctx)
		switch {
		case err == io.EOF:
			return nil
		case err != nil:
			if ctx.Err() != nil {
				return nil
			}
			// The head and what came before the break reach the caller
			// first; then the response is cut short.
			flush()
			panic(http.ErrAbortHandler)
		}
		if _, err := w.Write(chunk); err != nil {
			gone = true
			return nil
		}
	}
}

// groups recycles request groups: Send is done with a group when it
// returns, and a fresh one per request was the relay's largest allocation.
var groups = sync.Pool{New: func() any { return new(tunnelwire.Group) }}

// sendRequest sends the whole request as one group: one message when
// batching. With credit, a body longer than the stream's window goes as far
// as the window allows, and the rest on a goroutine of its own as the host
// returns credit, while Forward waits for the response: a handler may
// answer before it reads its body, or never read it.
func (rs *Session) sendRequest(ctx context.Context, id uint32, st *stream, h *tunnelwire.Head, body []byte) error {
	var rest []byte
	if rs.credit && len(body) > tunnelwire.Window*tunnelwire.MaxChunk {
		body, rest = body[:tunnelwire.Window*tunnelwire.MaxChunk], body[tunnelwire.Window*tunnelwire.MaxChunk:]
		st.credits.Take(tunnelwire.Window)
	}
	gp := groups.Get().(*tunnelwire.Group)
	defer func() {
		if cap(*gp) <= 2*tunnelwire.MaxMessage {
			*gp = gp.Reset()
			groups.Put(gp)
		}
	}()
	g, err := gp.Reset().AppendHead(tunnelwire.Request, id, h)
	if err != nil {
		return ErrHeadersTooLarge
	}
	for chunk := range slices.Chunk(body, tunnelwire.MaxChunk) {
		g = g.Append(tunnelwire.Data, id, chunk)
	}
	if rest == nil {
		g = g.AppendEnd(id, nil)
	}
	*gp = g
	if rs.send(*gp) != nil {
		return &UnreachableError{"Tunnel host disconnected"}
	}
	if rest != nil {
		go rs.sendRest(ctx, id, st, rest)
	}
	return nil
}

// sendRest sends the rest of a request body chunk by chunk as the host
// returns credit, then the end. It stops when the public caller goes away
// or the stream is over (its credits closed when Forward returns).
func (rs *Session) sendRest(ctx context.Context, id uint32, st *stream, rest []byte) {
	for chunk := range slices.Chunk(rest, tunnelwire.MaxChunk) {
		if st.credits.Acquire(ctx) != nil || rs.send(tunnelwire.Group(nil).Append(tunnelwire.Data, id, chunk)) != nil {
			return
		}
	}
	_ = rs.send(tunnelwire.Group(nil).AppendEnd(id, nil))
}

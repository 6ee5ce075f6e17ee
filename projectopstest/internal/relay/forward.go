package relay

import (
	"errors"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// Failures Forward reports before anything is written to the public
// caller, for it to answer.
var (
	// ErrHeadersTooLarge is a request whose head does not fit a control
	// message.
	ErrHeadersTooLarge = errors.New("relay: request headers too large to relay")
	// ErrBodyTooLarge is a request body past the limits' MaxReqBody.
	ErrBodyTooLarge = errors.New("relay: request body too large")
	// ErrBodyRead is a request body that failed to arrive.
	ErrBodyRead = errors.New("relay: could not read the request body")
	// ErrOverloaded is a request refused because the session has the
	// limits' MaxInflight requests in flight.
	ErrOverloaded = errors.New("relay: too many requests in flight")
)

// UnreachableError is a request the tunnel host could not take: none is
// connected, it disconnected, or it failed the request before answering.
type UnreachableError struct{ Msg string }

// Error implements error.
func (e *UnreachableError) Error() string { return "relay: " + e.Msg }

// Watcher is told when a relayed response is under way: Started once its
// head is written, Ended when Forward returns after that. The double's
// listener uses it to cut the streams already answered as it closes.
type Watcher interface {
	// Started is called once r's response head has been written.
	Started(r *http.Request)
	// Ended is called when the response Started announced is over.
	Ended(r *http.Request)
}

// Forward relays one request to the host as stream messages (url is the
// path and query to send, h the headers) and streams the response back,
// telling wt (if not nil) when the response is under way. A failure
// before the response starts is returned for the caller to answer: an
// *UnreachableError or one of the Err values. Once the head is written, a
// stream cut short (the host aborted, the session was lost, the body
// passed its limit) drops the public connection, so the caller's client
// sees the failure.
func (rs *Session) Forward(w http.ResponseWriter, r *http.Request, url string, h http.Header, wt Watcher) error {
	st, err := rs.open(r.Context())
	switch err {
	case nil:
	case errOverloaded:
		return ErrOverloaded
	case errClosed:
		return &UnreachableError{"No tunnel host is connected"}
	default:
		return nil // the caller went away (in process, or the double closed) before the hello was out: nothing was relayed
	}
	defer rs.forget(st)
	var rc *http.ResponseController // made when needed: most requests need none
	ctl := func() *http.ResponseController {
		if rc == nil {
			rc = http.NewResponseController(w)
		}
		return rc
	}
	if err := rs.sendRequest(r, st, url, h, ctl); err != nil {
		return err
	}
	if st.pumped != nil {
		// Handlers may not read the body once they return.
		defer st.stopPump(ctl(), r.Body)
	}
	// Every wait below ends when the public caller goes away, and then the
	// host hears of it: one check on the way out instead of a callback
	// registered on the context of every request. (Deferred last, so it
	// runs before stopPump, which may end the context.)
	ctx := r.Context()
	gone := false // a write to the caller failed
	defer func() {
		if gone || ctx.Err() != nil {
			rs.sendAbort(st, tunnelwire.AbortClientGone)
		}
	}()
	if _, err := st.body.Next(ctx); err != nil { // the head's marker
		switch {
		case ctx.Err() != nil:
			return nil
		case err == ErrBodyTooLarge, err == ErrBodyRead:
			return err
		}
		return &UnreachableError{"The tunnel host failed the request"}
	}
	// A head that cannot be written fails the response, and the edge
	// forgets the stream: it tells the host so, which would otherwise go
	// on counting the stream against maxInflight and never cancel its
	// handler.
	if st.status < 200 || st.status > 999 { // net/http panics on a status outside 100–999
		rs.sendAbort(st, tunnelwire.AbortUpstreamError)
		return &UnreachableError{"The tunnel host sent an invalid response status"}
	}
	if st.badHead {
		// The service's edge, a Node program, cannot write a header
		// character above U+00FF (no byte stands for it), a control
		// character but tab in a value or a name that is not a token:
		// setHeader throws and the response fails. Net/http would write
		// a NUL as it is, turn CR and LF into spaces and drop the name.
		rs.sendAbort(st, tunnelwire.AbortUpstreamError)
		return &UnreachableError{"The tunnel host sent a response header that cannot be written"}
	}
	for k, v := range tunnelwire.Clean(st.header) {
		w.Header()[k] = v
	}
	w.WriteHeader(st.status)
	if wt != nil {
		wt.Started(r)
		defer wt.Ended(r)
	}
	for {
		if !st.body.Pending() {
			_ = ctl().Flush() // stream what was written before waiting for more
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
			_ = ctl().Flush()
			panic(http.ErrAbortHandler)
		}
		if _, err := w.Write(chunk); err != nil {
			gone = true
			return nil
		}
	}
}

// batches recycles request batches: Send is done with a batch when it
// returns, and a fresh one per request was the relay's largest allocation.
var batches = sync.Pool{New: func() any { return new(tunnelwire.Batch) }}

// bufs recycles the buffers request bodies are read into, one chunk each.
var bufs = sync.Pool{New: func() any {
	b := make([]byte, tunnelwire.DefaultLimits.Chunk)
	return &b
}}

// sendRequest sends the request's head, and its body as chunks. A body
// that one read (to the end of a known length) takes goes in the same
// Send as the head and the end, so a small request is one write; a longer
// one is pumped on a goroutine of its own while Forward waits for the
// response (a handler may answer before it reads its body, or never read
// it).
func (rs *Session) sendRequest(r *http.Request, st *stream, url string, h http.Header, ctl func() *http.ResponseController) error {
	hasBody := r.Body != nil && r.Body != http.NoBody && r.ContentLength != 0
	if hasBody && r.ContentLength > rs.limits.MaxReqBody {
		return ErrBodyTooLarge // known before anything is relayed
	}
	gp := batches.Get().(*tunnelwire.Batch)
	defer func() {
		if cap(*gp) <= 2*tunnelwire.MaxMessage {
			*gp = gp.Reset()
			batches.Put(gp)
		}
	}()
	g := gp.Reset().Req(st.id, r.Method, url, h, hasBody, true)
	*gp = g
	if g.Len() > tunnelwire.HeaderLen+tunnelwire.MaxControl { // the batch's framing is as long as a chunk's header
		return ErrHeadersTooLarge
	}
	var bp *[]byte // the pump's, when the body is longer than one read
	var sent int64
	if hasBody {
		bp = bufs.Get().(*[]byte)
		n, err := fill(r.Body, *bp, r.ContentLength)
		switch {
		case err == io.EOF:
			if n > 0 {
				g = g.Chunk(tunnelwire.ReqChunk, st.id, (*bp)[:n])
			}
			g = g.End(tunnelwire.ReqEnd, st.id)
			bufs.Put(bp)
			bp = nil
		case err != nil:
			bufs.Put(bp)
			return ErrBodyRead
		default:
			g = g.Chunk(tunnelwire.ReqChunk, st.id, (*bp)[:n])
			sent = int64(n)
		}
		*gp = g
	}
	if err := rs.w.Send(g); err != nil {
		if bp != nil {
			bufs.Put(bp)
		}
		return &UnreachableError{"Tunnel host disconnected"}
	}
	if bp != nil {
		// The caller's body is read while the response is written.
		_ = ctl().EnableFullDuplex()
		st.pumped, st.stop = make(chan struct{}), make(chan struct{})
		go rs.pump(st, r.Body, bp, sent)
	}
	return nil
}

// fill reads the start of a body into buf: until buf is full or the body
// ends when its length is known, what the first read gives when it is not
// (the rest may be slow to come, and the head goes to the host at once).
func fill(body io.Reader, buf []byte, length int64) (int, error) {
	n := 0
	for n < len(buf) {
		m, err := body.Read(buf[n:])
		n += m
		if err != nil {
			return n, err
		}
		if length < 0 && n > 0 {
			break
		}
	}
	return n, nil
}

// pump sends the rest of a request body to the host a read at a time,
// then req_end. A body past MaxReqBody is aborted as too_large and one
// that fails to arrive as client_gone; either ends the stream, for Forward
// to answer. It stops when Forward does, or the stream is aborted.
func (rs *Session) pump(st *stream, body io.Reader, bp *[]byte, sent int64) {
	defer close(st.pumped)
	defer bufs.Put(bp)
	var g tunnelwire.Batch
	for {
		n, err := body.Read(*bp)
		select {
		case <-st.stop:
			return
		default:
		}
		if st.abort.Load() {
			return
		}
		sent += int64(n)
		if sent > rs.limits.MaxReqBody {
			rs.sendAbort(st, tunnelwire.AbortTooLarge)
			st.body.Finish(ErrBodyTooLarge)
			return
		}
		g = g.Reset()
		if n > 0 {
			g = g.Chunk(tunnelwire.ReqChunk, st.id, (*bp)[:n])
		}
		switch {
		case err == io.EOF:
			g = g.End(tunnelwire.ReqEnd, st.id)
		case err != nil:
			rs.sendAbort(st, tunnelwire.AbortClientGone)
			st.body.Finish(ErrBodyRead)
			return
		}
		if !g.Empty() && rs.w.Send(g) != nil || err == io.EOF {
			return
		}
	}
}

// stopPump stops a pump still reading the caller's body and waits for it:
// a read the caller holds up is ended by a read deadline in the past (or
// by closing the body, in process, where there is no deadline).
func (st *stream) stopPump(rc *http.ResponseController, body io.Closer) {
	select {
	case <-st.pumped:
		return
	default:
	}
	close(st.stop)
	if rc.SetReadDeadline(time.Now()) != nil {
		_ = body.Close()
	}
	<-st.pumped
}

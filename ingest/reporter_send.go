package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/shared"
)

// cut ends the current chunk: it starts the run if needed, spools the
// chunk and hands it to an upload goroutine (see dispatch). The chunk is
// spooled before any wait, so a process killed while Record waits for a
// slot loses none of the results it recorded. Call with r.mu held and no
// chunk pending.
func (r *Reporter) cut(ctx context.Context) error {
	if !r.started {
		sctx, stop := r.bounded(ctx)
		r.start(sctx)
		stop()
	}
	r.seq++
	r.chunks.Store(int64(r.seq))
	seq, n := r.seq, r.n
	// One buffer per chunk: the request body, whose results array is also
	// what the spool keeps.
	body := r.getBody()
	body = append(body, `{"runId":`...)
	body = appendJSONString(body, r.runID)
	body = append(body, `,"results":`...)
	from := len(body)
	body = append(body, '[')
	body = append(body, r.buf...)
	body = append(body, ']')
	r.buf, r.n = r.buf[:0], 0
	r.spoolWrite(spoolRecord{Kind: "chunk", Seq: seq}, body[from:])
	body = append(body, '}')
	r.pending = &pendingChunk{seq: seq, n: n, body: body}
	return r.dispatch(ctx)
}

// bounded is ctx, ended also when the uploads are cancelled (a Close
// whose context ended): a service call made under the lock (starting the
// run, a widget upload) then holds Close no longer than its context.
func (r *Reporter) bounded(ctx context.Context) (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(ctx)
	stop := context.AfterFunc(r.upCtx, cancel)
	return ctx, func() { stop(); cancel() }
}

// pendingChunk is a chunk cut and spooled, not yet handed to an upload.
type pendingChunk struct {
	seq, n int
	body   []byte
}

// dispatch hands the pending chunk to an upload goroutine once an upload
// slot is free (Concurrency chunks in flight: that bounds the chunks being
// uploaded, though a body the transport still holds after its answer
// lives on beside them until the transport closes it), waiting
// only while ctx lasts. If ctx ends first it returns ctx's error, and the
// chunk stays pending, first in line for the next call. A chunk that will
// not be sent (the run was complete, failed, or its uploads abandoned) is
// left in the spool. Call with r.mu held.
func (r *Reporter) dispatch(ctx context.Context) error {
	p := r.pending
	if p == nil {
		return nil
	}
	if r.done || r.Err() != nil {
		r.dropPending()
		return nil
	}
	slot, err := r.acquire(ctx)
	if err != nil {
		return err
	}
	if !slot {
		// The uploads were abandoned (a Flush or Close context ended):
		// this chunk, like theirs, waits in the spool for Resume.
		r.fail(context.Cause(r.upCtx))
		r.dropPending()
		return nil
	}
	r.pending = nil
	r.progress()
	up := r.upCtx
	r.uploads.Add(1)
	go func() {
		defer r.uploads.Done()
		r.send(up, p.seq, p.n, p.body)
		<-r.slots
	}()
	return nil
}

// dropPending forgets the pending chunk, which stays in the spool.
func (r *Reporter) dropPending() {
	if r.pending != nil {
		r.putBody(r.pending.body)
		r.pending = nil
	}
}

// acquire takes an upload slot, waiting while ctx lasts. It reports false,
// with nothing taken, when the uploads were abandoned (upCtx ended), and
// returns ctx's error when ctx ends first. A free slot is taken even when
// ctx has ended: ctx bounds waiting, nothing else.
func (r *Reporter) acquire(ctx context.Context) (bool, error) {
	select {
	case r.slots <- struct{}{}:
		return true, nil
	default:
	}
	select {
	case r.slots <- struct{}{}:
		return true, nil
	case <-r.upCtx.Done():
		return false, nil
	case <-ctx.Done():
		return false, ctx.Err()
	}
}

// resultsArray moves the buffered results into a pooled "[...]" slice and
// empties the buffer.
func (r *Reporter) resultsArray() []byte {
	out := r.getBody()
	out = append(out, '[')
	out = append(out, r.buf...)
	out = append(out, ']')
	r.buf, r.n = r.buf[:0], 0
	return out
}

// send appends one chunk, whose pooled body it takes over: the body goes
// back to the pool once nothing reads it, which may be after send returns
// (see transport.Request.Release). While throttled it holds r.serial, so
// one chunk at a time is sent; a chunk that meets a 429 takes r.serial
// before its retry (OnAttempt runs before the transport waits to retry).
func (r *Reporter) send(ctx context.Context, seq, n int, body []byte) {
	if r.Err() != nil {
		// An earlier chunk failed while this one waited: it stays
		// spooled, and its body, never handed to the transport, goes
		// back now.
		r.putBody(body)
		return
	}
	held := false
	if r.throttled.Load() {
		r.serial.Lock()
		held = true
	}
	defer func() {
		if held {
			r.serial.Unlock()
		}
	}()
	observe := func(status int) {
		r.observe(status)
		if status == http.StatusTooManyRequests && !held {
			r.serial.Lock()
			held = true
		}
	}
	r.inflight.Add(1)
	_, err := r.svc.appendChunk(r.callCtx(ctx), r.opt.Project, nil, body, r.releaser(body), observe)
	r.inflight.Add(-1)
	if err != nil {
		r.fail(err)
		return
	}
	r.sent.Add(int64(n))
	r.spoolWrite(spoolRecord{Kind: "ack", Seq: seq}, nil)
	r.progress()
}

// start creates (or reuses) the run. A reused run that is already complete
// is left alone: nothing more is sent. Call with r.mu held.
func (r *Reporter) start(ctx context.Context) {
	r.started = true
	if r.Err() != nil {
		return
	}
	res, err := r.svc.run(r.callCtx(ctx), routeStart, r.opt.Project, r.opt.Run, nil, nil, r.observe, nil)
	if err != nil {
		r.fail(err)
		return
	}
	r.runID = res.RunID
	r.done = res.Reused && res.Status != StatusRunning
}

// observe adapts concurrency: one chunk at a time while the service
// answers 429, back to Concurrency after a success.
func (r *Reporter) observe(status int) {
	switch {
	case status == http.StatusTooManyRequests:
		r.throttled.Store(true)
	case status >= 200 && status < 300:
		r.throttled.Store(false)
	}
}

// fail records the first reporting failure; later chunks are only spooled.
func (r *Reporter) fail(err error) {
	scrubValues(err, r.enc.redact)
	r.failMu.Lock()
	defer r.failMu.Unlock()
	if r.failure == nil {
		r.failure = err
	}
}

// scrubValues takes the run's own secrets (rd's values) out of what a
// service error says: a backend quoting the request may write a replay
// token where no field names it.
func scrubValues(err error, rd redactor) {
	if e, ok := errors.AsType[*shared.Error](err); ok && rd.values != nil {
		apierr.Redact(e, func(s string) string { return string(rd.text(s)) })
	}
}

func (r *Reporter) spoolWrite(rec spoolRecord, results []byte) {
	if r.opt.NoSpool {
		return
	}
	if r.spool == nil {
		if rec.Kind != "chunk" {
			return
		}
		sp, err := openSpool(r.opt.SpoolDir, r.opt.Project, r.opt.Run, r.enc.redact)
		if err != nil {
			r.log.Warn("projectops: ingest: cannot spool results", "error", err)
			r.opt.NoSpool = true
			return
		}
		r.spool = sp
	}
	if err := r.spool.write(rec, results); err != nil {
		// Said once: from here on nothing more is spooled, so what the
		// service does not store cannot be resumed.
		r.log.Warn("projectops: ingest: writing the spool failed; results not stored from here on cannot be resumed", "error", err)
	}
}

func (r *Reporter) progress() {
	if r.opt.Progress == nil {
		return
	}
	r.opt.Progress(Progress{Recorded: int(r.recorded.Load()), Sent: int(r.sent.Load()), InFlight: int(r.inflight.Load()),
		Chunks: int(r.chunks.Load()), Throttled: r.throttled.Load()})
}

func (r *Reporter) getBody() []byte {
	if b, ok := r.bodies.Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return make([]byte, 0, r.opt.ChunkBytes+chunkOverhead)
}

func (r *Reporter) putBody(b []byte) { r.bodies.Put(&b) }

// releaser is a transport.Request.Release that puts b back in the pool.
func (r *Reporter) releaser(b []byte) func() { return func() { r.putBody(b) } }

func appendJSONString(dst []byte, s string) []byte {
	b, _ := json.Marshal(s)
	return append(dst, b...)
}

func jsonMarshal(v any) ([]byte, error) { return wire.Encode(v, wireJSON) }

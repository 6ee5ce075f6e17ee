package ingest

import (
	"context"
	"errors"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/transport"
)

// Close sends what is left and finalizes the run: one report call when the
// run never needed more than one chunk and its whole report body (the
// run's fields included) fits ChunkBytes, else the last chunk and
// runs/finalize. It waits for every upload. ctx bounds all of it, the wait
// for a Record or Flush in progress included: when ctx ends, the uploads
// are cancelled (which also ends a Record waiting for an upload slot, its
// result spooled), and Close returns once they have stopped, reporting a
// failure. The spool file is removed once the run is finalized; after a
// failure it stays for Resume and the Outcome (and, when Strict, the
// error) names it. Close is not idempotent: a second call returns
// ErrReporterClosed.
func (r *Reporter) Close(ctx context.Context) (*Outcome, error) {
	if ctx == nil {
		return nil, apierr.NilContext() // the reporter stays open for a Close with a context
	}
	if !r.configured() {
		return nil, errUnconfigured()
	}
	if !r.closing.CompareAndSwap(false, true) {
		return nil, ErrReporterClosed // without touching the first Close's uploads
	}
	// Armed before taking the lock: a Record holding it while it waits for
	// a slot that a stalled upload keeps is released by the cancellation.
	// From here on ctx bounds the uploads, the last chunk's wait for a
	// free upload slot included.
	stop := context.AfterFunc(ctx, r.upCancel)
	defer stop()
	r.mu <- struct{}{} // not lock(ctx): Close must close, and the AfterFunc frees a holder stuck on a slot
	defer r.unlock()
	r.closed = true
	defer r.upCancel()
	var run *RunResult
	oneShot := !r.started && r.Err() == nil
	var head []byte
	var herr error
	if oneShot {
		head, herr = jsonMarshal(r.opt.Run)
		oneShot = herr != nil || r.reportFits(head)
	}
	if oneShot {
		run = r.report(ctx, head, herr)
	} else {
		err := r.dispatch(ctx)
		if err == nil && r.n > 0 {
			err = r.cut(ctx)
		} else if err == nil && !r.started {
			r.start(ctx) // a run with no results still gets its verdict
		}
		if err != nil {
			// ctx ended while a chunk waited for a slot (the uploads are
			// being cancelled): it stays in the spool, as do the results
			// not cut yet.
			r.fail(err)
			r.dropPending()
			if r.n > 0 {
				_ = r.cut(ctx) // spools; failed, it sends nothing
			}
		}
		r.uploads.Wait()
		if r.Err() == nil && r.runID != "" {
			run, err = r.svc.run(r.callCtx(ctx), routeFinalize, r.opt.Project,
				FinalizeParams{RunID: r.runID, ExternalRunID: r.opt.Run.ExternalRunID}, nil, nil, r.observe, nil)
			if err != nil {
				r.fail(err)
				run = nil
			}
		}
	}
	out := &Outcome{Run: run, Local: summarize(r.passed, r.failed), Recorded: int(r.recorded.Load()),
		Sent: int(r.sent.Load()), Truncated: r.truncated, Chunks: r.seq, Reused: r.done}
	failed := r.Err()
	if r.done && failed == nil {
		// Not a failure (it is what makes a retried step safe), but the
		// results recorded here are in no run: say so.
		r.log.Warn("projectops: ingest: the run was already complete under this external run id; the results recorded were not stored",
			"externalRunId", r.opt.Run.ExternalRunID, "runId", r.runID, "recorded", out.Recorded)
	}
	if r.spool != nil {
		if failed != nil {
			out.SpoolPath = r.spool.path
		}
		if err := r.spool.close(failed == nil); err != nil && failed == nil {
			r.log.Warn("projectops: ingest: removing the spool file", "error", err)
		}
	}
	if failed == nil {
		return out, nil
	}
	out.Err = r.wrap(failed)
	if r.opt.Strict {
		return out, out.Err
	}
	r.log.Warn("projectops: ingest: results were not reported", "error", out.Err)
	return out, nil
}

// reportFits reports whether the one-shot report body (the run's encoded
// fields, head, and the buffered results) fits a chunk. Records reserve only
// chunkOverhead for the envelope, which a chunk's {"runId":..} fits but
// the run's notes, tags or host config need not: then the run goes the
// chunked way, as the reference reporter's does past its 1 MiB.
func (r *Reporter) reportFits(head []byte) bool {
	n := len(head) - 1 + len(`,"results":[`) + len(r.buf) + len("]}")
	return n <= r.opt.ChunkBytes
}

// report sends the whole run as one report call (results already spooled
// as chunk 1, marked as a report); head is the run's encoded fields, or
// herr. A failure whose every attempt was refused (a 4xx) or provably
// never left (a dial error: connection refused, DNS) is spooled as such:
// Resume then knows the report stored nothing, whereas one whose answer
// may have been lost (another network error, a 5xx, a reporter killed
// while waiting) may have stored and completed the run. Call with r.mu
// held.
func (r *Reporter) report(ctx context.Context, head []byte, herr error) *RunResult {
	r.seq++
	results := r.resultsArray()
	defer r.putBody(results)
	r.spoolWrite(spoolRecord{Kind: "chunk", Seq: r.seq, Report: true}, results)
	if herr != nil {
		r.fail(herr)
		r.spoolWrite(spoolRecord{Kind: "refused", Seq: r.seq}, nil)
		return nil
	}
	body := r.getBody()
	body = append(body, head[:len(head)-1]...)
	body = append(body, `,"results":`...)
	body = append(body, results...)
	body = append(body, '}')
	unsure, last := 0, 0 // attempts that may have stored the run; the last status
	unsent := false      // this attempt's network error proves it never left
	netErr := func(err error) { unsent = transport.NotSent(err) }
	observe := func(status int) {
		r.observe(status)
		if (status < 400 || status >= 500) && !(status == 0 && unsent) {
			unsure++
		}
		last, unsent = status, false
	}
	// The transport hands body back to the pool once nothing reads it,
	// which may be after run returns (see transport.Request.Release).
	run, err := r.svc.run(r.callCtx(ctx), routeReport, r.opt.Project, nil, body, r.releaser(body), observe, netErr)
	if err != nil {
		r.fail(err)
		// Refused: every attempt answered 4xx or never left, or the last
		// a 2xx {"ok":false} (answered in full: nothing stored) or a
		// backend refusing caseId (its validation refuses the report
		// whole, whatever the status) after such ones.
		if unsure == 0 || unsure == 1 && (last >= 200 && last < 300 && errors.Is(err, ErrNotOK) || errors.Is(err, ErrIncompatibleBackend)) {
			r.spoolWrite(spoolRecord{Kind: "refused", Seq: r.seq}, nil)
		}
		return nil
	}
	r.sent.Add(int64(r.recorded.Load()))
	r.spoolWrite(spoolRecord{Kind: "ack", Seq: r.seq}, nil)
	return run
}

func summarize(passed, failed int) Summary {
	s := Summary{Total: passed + failed, Passed: passed, Failed: failed}
	if s.Total > 0 {
		s.PassRate = float64(passed) / float64(s.Total)
	}
	return s
}

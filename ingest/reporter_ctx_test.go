package ingest_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// stalled is a reporter with one upload slot whose first chunk's upload
// hangs for 10 s: results "s0" and "s1" are recorded, chunk 1 ("s0") holds
// the slot, and "s1" waits in the buffer.
func stalled(t *testing.T) (*fixture, *ingest.Reporter, string, []ingest.Result) {
	t.Helper()
	f := setup(t)
	f.srv.SetFault(routeAppend, projectopstest.Fault{Latency: 10 * time.Second})
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Concurrency = 1; o.ChunkSize = 1 })
	rs := results("s", 3, 0)
	record(t, r, rs[:2])
	return f, r, dir, rs
}

// within runs fn and fails the test unless it returns within 5 s, half the
// stalled upload's latency.
func within[T any](t *testing.T, what string, fn func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- fn() }()
	select {
	case v := <-done:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("%s still blocked after 5 s: its context was ignored", what)
		var zero T
		return zero
	}
}

func shortCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	t.Cleanup(cancel)
	return ctx
}

// resumeRows clears the faults, resumes the spool and asserts the run holds
// exactly rs.
func resumeRows(t *testing.T, f *fixture, dir string, rs []ingest.Result) {
	t.Helper()
	f.srv.ClearFaults()
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Run == nil {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	wantRows(t, f.srv, res[0].Run.RunID, rs)
}

// Record and Flush waiting for the upload slot a stalled upload holds give
// up when their context ends: Record refuses its result (nothing recorded
// or spooled), Flush abandons the uploads to the spool.
func TestReporterRecordAndFlushHonourContext(t *testing.T) {
	t.Parallel()
	f, r, dir, rs := stalled(t)
	err := within(t, "Record", func() error { return r.Record(shortCtx(t), rs[2]) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Record = %v, want the context's error", err)
	}
	err = within(t, "Flush", func() error { return r.Flush(shortCtx(t)) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Flush = %v, want the context's error", err)
	}
	out, err := r.Close(t.Context())
	if err != nil || out.Err == nil || out.SpoolPath == "" || out.Recorded != 2 {
		t.Fatalf("Close = %+v, %v: want the abandoned uploads spooled and the refused result not recorded", out, err)
	}
	resumeRows(t, f, dir, rs[:2])
}

// A Close whose context ends cancels the uploads: a Record holding the lock
// while it waits for a slot is released (its result spooled), and Close
// returns. A Record waiting for the lock meanwhile gives up with its own
// context.
func TestReporterCloseEndsABlockedRecord(t *testing.T) {
	t.Parallel()
	f, r, dir, rs := stalled(t)
	blocked := make(chan error, 1)
	go func() { blocked <- r.Record(context.Background(), rs[2]) }()
	// Give it time to block on the slot (if it has not, Close takes the
	// lock first and the bounds below still hold).
	time.Sleep(100 * time.Millisecond)
	extra := ingest.Result{CaseTitle: "extra", Passed: true}
	if err := within(t, "Record behind the lock", func() error { return r.Record(shortCtx(t), extra) }); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Record waiting for the lock = %v, want the context's error", err)
	}
	type closed struct {
		out *ingest.Outcome
		err error
	}
	c := within(t, "Close", func() closed { out, err := r.Close(shortCtx(t)); return closed{out, err} })
	if c.err != nil || c.out.Err == nil || c.out.SpoolPath == "" {
		t.Fatalf("Close = %+v, %v: want a failure naming the spool", c.out, c.err)
	}
	want := rs[:2]
	switch err := within(t, "the blocked Record", func() error { return <-blocked }); {
	case err == nil:
		want = rs // recorded before Close took the lock: spooled
	case !errors.Is(err, ingest.ErrReporterClosed):
		t.Fatalf("blocked Record = %v", err)
	}
	resumeRows(t, f, dir, want)
}

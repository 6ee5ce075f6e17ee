package ingest_test

import (
	"context"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// Close's context bounds a Record in progress that is starting the run
// (runs/start stalled): the call ends with the uploads Close cancels, and
// the results stay in the spool. Close waited the stall out.
func TestCloseContextBoundsRecordStartingTheRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeStart, projectopstest.Fault{Latency: 8 * time.Second})
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.ChunkSize = 1 })
	rs := results("s", 2, 0)
	record(t, r, rs[:1])
	recDone := make(chan error, 1)
	go func() { recDone <- r.Record(context.Background(), rs[1]) }() // cuts chunk 1: runs/start stalls
	time.Sleep(200 * time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	done := make(chan *ingest.Outcome, 1)
	go func() { out, _ := r.Close(ctx); done <- out }()
	select {
	case out := <-done:
		if out == nil || out.Err == nil || out.SpoolPath == "" {
			t.Errorf("Close = %+v, want a failure naming the spool", out)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close with a 200 ms context still waiting 5 s on, for a Record starting the run")
	}
	<-recDone
}

//go:build linux

package ingest_test

import (
	"bytes"
	"log/slog"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A spool write that fails (a full disk, here the file size limit) is
// logged, and the spool is removed once the run is finalized all the same:
// kept, it would have a later Resume send the run a second time. Not
// parallel: the limit applies to the whole process.
func TestSpoolWriteFailureIsLoggedAndTheSpoolRemoved(t *testing.T) {
	f := setup(t)
	var logged bytes.Buffer
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.ChunkSize = 10
		o.Strict = true
		o.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	})
	rs := results("full", 30, 0)
	record(t, r, rs[:10])
	if err := r.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	files := spoolFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("spool files: %v", files)
	}
	fi, err := os.Stat(files[0])
	if err != nil {
		t.Fatal(err)
	}
	restore := limitFileSize(t, uint64(fi.Size())+64) // room for no chunk
	record(t, r, rs[10:])
	out, err := r.Close(t.Context())
	restore()
	if err != nil || out.Run == nil || out.Run.Status != ingest.StatusCompleted {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	wantRows(t, f.srv, out.Run.RunID, rs)
	if left := spoolFiles(t, dir); len(left) != 0 {
		t.Errorf("spool kept after the run was finalized: %v", left)
	}
	if n := strings.Count(logged.String(), "writing the spool failed"); n != 1 {
		t.Errorf("%d warnings of the failed spool write, want 1: %s", n, logged.String())
	}
	if res, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil || len(res) != 0 {
		t.Errorf("Resume = %+v, %v: want nothing to do", res, err)
	}
	if runs := f.srv.IngestedRuns(""); len(runs) != 1 {
		t.Errorf("%d runs, want 1", len(runs))
	}
}

// A spool file whose run record cannot be written is not left behind (no
// Resume could read it); the run is reported without a spool.
func TestSpoolWithoutItsRunRecordIsRemoved(t *testing.T) {
	f := setup(t)
	var logged bytes.Buffer
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	})
	rs := results("empty", 3, 0)
	restore := limitFileSize(t, 0)
	record(t, r, rs)
	out, err := r.Close(t.Context())
	restore()
	if err != nil || out.Run == nil {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	wantRows(t, f.srv, out.Run.RunID, rs)
	if !strings.Contains(logged.String(), "cannot spool results") {
		t.Errorf("no warning: %s", logged.String())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("left in the spool directory: %v", entries)
	}
}

// limitFileSize lowers the process's file size limit (as a full disk
// would refuse writes) until the returned func, or the test's end,
// restores it.
func limitFileSize(t *testing.T, n uint64) (restore func()) {
	t.Helper()
	var old syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
		t.Fatal(err)
	}
	lim := old
	lim.Cur = n // lowering the soft limit needs no privilege
	if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &lim); err != nil {
		t.Fatal(err)
	}
	done := false
	restore = func() {
		if !done {
			done = true
			if err := syscall.Setrlimit(syscall.RLIMIT_FSIZE, &old); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Cleanup(restore)
	return restore
}

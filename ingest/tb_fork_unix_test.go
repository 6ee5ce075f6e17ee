//go:build unix

package ingest_test

import (
	"os/exec"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A closed TBRecorder's spool is not skipped as a live reporter's by a
// Resume right after, while the process forks: the spool is unlocked
// before it is closed, since a child holds a copy of the descriptor (and
// the lock) until it execs. About 4% of such Resumes found nothing.
func TestTBSpoolNotSkippedWhileForking(t *testing.T) {
	f := setup(t)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				_ = exec.Command("true").Run()
			}
		})
	}
	defer wg.Wait()
	defer close(stop)
	skipped := 0
	const n = 300
	for range n {
		dir := t.TempDir()
		rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: dir, Suite: "s", Getenv: func(string) string { return "" }})
		rec.Record(t, ingest.Result{CaseTitle: "c", Passed: true})
		if err := rec.Close(); err != nil {
			t.Fatal(err)
		}
		res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(res) == 0 {
			skipped++
		}
	}
	if skipped > 0 {
		t.Errorf("Resume skipped a closed TBRecorder spool as live %d times in %d", skipped, n)
	}
}

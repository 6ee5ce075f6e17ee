package ingest_test

import (
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// Two sources may record into one Reporter from two goroutines, and each
// runs the Reporter's Redact hook itself on text it cuts: the hook is
// still called one at a time, as ReporterOptions.Redact asks no
// concurrency safety of it.
func TestRedactHookNotCalledConcurrently(t *testing.T) {
	srv := projectopstest.NewTestServer(t)
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	var inside, overlap atomic.Int32
	hook := func(s string) string {
		if inside.Add(1) > 1 {
			overlap.Add(1)
		}
		time.Sleep(2 * time.Millisecond)
		inside.Add(-1)
		return s
	}
	rep, err := ingest.NewReporter(c.Ingest, ingest.ReporterOptions{NoSpool: true, Redact: hook,
		Run: ingest.RunParams{SuiteName: "hook-conc", ExternalRunID: "hook-conc"}})
	if err != nil {
		t.Fatal(err)
	}
	stream := goTestCutStream(t, "    x_test.go:9: some line ", "with nothing secret")
	var wg sync.WaitGroup
	for range 2 {
		wg.Go(func() {
			for range 20 {
				if _, err := ingest.ReadGoTest(t.Context(), strings.NewReader(stream), rep, ingest.GoTestOptions{}); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if _, err := rep.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if n := overlap.Load(); n > 0 {
		t.Errorf("the Redact hook was called concurrently %d times by two sources recording into one Reporter; ReporterOptions.Redact does not say it must be safe for concurrent use", n)
	}
}

package ingest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// Resume builds each batch of results it re-sends after the previous one's
// upload returned, which the RoundTripper may still be reading: every
// batch goes out with its own bytes. (appendRaw's raw must never change
// afterwards; building the next batch into the last one's buffer would
// send it in the place of the one still being sent.)
func TestResumeKeepsBatchBodyUntilClosed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeAppend, projectopstest.Fault{Status: 500, Times: 1}) // the first chunk fails: all stay spooled
	c := f.client(t, option.WithMaxRetries(0))
	r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.Concurrency = 1 })
	const n = 2*ingest.DefaultChunkSize + 50 // three batches, the last the shortest
	for i := range n {
		if err := r.Record(t.Context(), ingest.Result{CaseTitle: fmt.Sprintf("case-%03d", i), Passed: true}); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := r.Close(t.Context()); err != nil || out.Err == nil {
		t.Fatalf("Close = %+v, %v: want a spooled failure", out, err)
	}
	rt := newLateBodyRT(t, f.srv.Transport())
	lc := f.client(t, option.WithTransport(rt), option.WithMaxRetries(0))
	if got, err := ingest.Resume(t.Context(), lc.Ingest, dir); err != nil || len(got) != 1 || got[0].Resent != n {
		t.Fatalf("Resume = %+v, %v", got, err)
	}
	sent := rt.read()
	if len(sent) != 3 {
		t.Fatalf("%d appends, want 3", len(sent))
	}
	i := 0
	for k, b := range sent {
		for j := range strings.Count(string(b), `"caseTitle"`) {
			if want := fmt.Sprintf(`"caseTitle":"case-%03d"`, i); !strings.Contains(string(b), want) {
				t.Fatalf("append %d, result %d: no %s in %.200s", k, j, want, b)
			}
			i++
		}
	}
	if i != n {
		t.Errorf("%d results appended, want %d", i, n)
	}
}

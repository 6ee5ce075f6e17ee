package ingest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
)

// A chunk's body is the Reporter's to reuse only once the RoundTripper has
// closed it, which it may do after the upload returned: every chunk goes
// out with its own bytes, though the next ones are built meanwhile (the
// Reporter used to build the next chunk into the body still being sent).
func TestReporterKeepsChunkBodyUntilClosed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rt := newLateBodyRT(t, f.srv.Transport())
	c := f.client(t, option.WithTransport(rt), option.WithMaxRetries(0))
	r, _ := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkSize = 1; o.Concurrency = 1; o.NoSpool = true })
	const n = 20
	for i := range n {
		if err := r.Record(t.Context(), ingest.Result{CaseTitle: fmt.Sprintf("case-%02d", i), Passed: true}); err != nil {
			t.Fatal(err)
		}
		// The upload has returned: its body was handed back (the pool
		// had it) before the next chunk takes a buffer.
		if err := r.Flush(t.Context()); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := r.Close(t.Context()); err != nil || out.Err != nil {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	sent := rt.read()
	if len(sent) != n {
		t.Fatalf("%d appends, want %d", len(sent), n)
	}
	for i, b := range sent {
		if want := fmt.Sprintf(`"caseTitle":"case-%02d"`, i); strings.Count(string(b), `"caseTitle"`) != 1 || !strings.Contains(string(b), want) {
			t.Errorf("append %d is %s, want one result with %s", i, b, want)
		}
	}
}

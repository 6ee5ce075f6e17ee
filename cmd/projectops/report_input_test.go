package main

import (
	"errors"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// A source cuts long text with the redaction of the Reporter it records
// into, found by Unwrap (ingest.Recorder): the lazy reporter makes its
// Reporter then, once, so the cut knows the run's secrets.
func TestLazyReporterUnwrapsToItsReporter(t *testing.T) {
	srv := projectopstest.NewTestServer(t)
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	made := 0
	l := &lazyReporter{make: func() (*ingest.Reporter, error) {
		made++
		return ingest.NewReporter(c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{SuiteName: "lazy"}})
	}}
	unwrap := func(l *lazyReporter) ingest.Recorder {
		u, ok := ingest.Recorder(l).(interface{ Unwrap() ingest.Recorder })
		if !ok {
			t.Fatal("lazyReporter has no Unwrap() ingest.Recorder")
		}
		return u.Unwrap()
	}
	if got := unwrap(l); got != ingest.Recorder(l.rep) || l.rep == nil {
		t.Fatalf("Unwrap = %v, want the reporter made (%v)", got, l.rep)
	}
	if err := l.Record(t.Context(), ingest.Result{CaseTitle: "a", Passed: true}); err != nil || made != 1 {
		t.Fatalf("Record: %v; made %d reporters, want 1", err, made)
	}
	if _, err := l.close(t.Context()); err != nil {
		t.Fatal(err)
	}

	bad := errors.New("no reporter")
	l = &lazyReporter{make: func() (*ingest.Reporter, error) { return nil, bad }}
	if got := unwrap(l); got != nil {
		t.Errorf("Unwrap = %v after a failed make, want nil", got)
	}
	if err := l.Record(t.Context(), ingest.Result{CaseTitle: "a", Passed: true}); !errors.Is(err, bad) {
		t.Errorf("Record = %v, want %v", err, bad)
	}
}

package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
)

// cancelled is a context that has already ended: a zero Reporter must
// answer before looking at it, so an old one that waited on its nil lock
// channel returns context.Canceled instead, without the test timing
// anything.
func cancelled() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	return ctx
}

// A Reporter not made by NewReporter fails Record, Flush and Err with the
// "unconfigured reporter" VALIDATION_ERROR at once, as a zero service
// fails its calls, instead of waiting on its nil lock channel; its
// ExternalRunID is "", not a nil-pointer panic.
func TestZeroReporterFailsTyped(t *testing.T) {
	calls := map[string]func(r *ingest.Reporter) error{
		"Record": func(r *ingest.Reporter) error { return r.Record(cancelled(), ingest.Result{CaseTitle: "a"}) },
		"Flush":  func(r *ingest.Reporter) error { return r.Flush(cancelled()) },
		"Err":    func(r *ingest.Reporter) error { return r.Err() },
	}
	for name, call := range calls {
		t.Run(name, func(t *testing.T) {
			for _, r := range []*ingest.Reporter{new(ingest.Reporter), nil} {
				err := call(r)
				e := wantCode(t, err, projectops.CodeValidation, "reporter")
				if !strings.Contains(e.Message, "unconfigured reporter") {
					t.Errorf("%s of %v: %v; want the unconfigured reporter's error", name, r, err)
				}
			}
		})
	}
	t.Run("ExternalRunID", func(t *testing.T) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("zero Reporter.ExternalRunID panicked: %v", p)
			}
		}()
		if id := new(ingest.Reporter).ExternalRunID(); id != "" {
			t.Errorf("zero Reporter.ExternalRunID = %q, want \"\"", id)
		}
	})
}

// Close of a zero Reporter returns the VALIDATION_ERROR. It used to arm
// context.AfterFunc with the Reporter's nil cancel func, which kills the
// process ("go of nil func value", beyond recover) once the context ends:
// with an ended context, at once. Hence the child process.
func TestZeroReporterCloseFailsTyped(t *testing.T) {
	const env = "PROJECTOPS_TEST_ZERO_REPORTER_CLOSE"
	if os.Getenv(env) == "1" {
		var r ingest.Reporter
		out, err := r.Close(cancelled())
		fmt.Printf("close returned: outcome=%v validation=%v\n", out != nil, errors.Is(err, projectops.ErrValidation))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestZeroReporterCloseFailsTyped$", "-test.count=1")
	cmd.Env = append(os.Environ(), env+"=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "close returned: outcome=false validation=true") {
		t.Fatalf("zero Reporter.Close in a child process: %v\n%s", err, out)
	}
}

// A TBRecorder not made by NewTBRecorder fails the test through tb.Errorf
// (it can record nothing) instead of panicking on its nil options.
func TestZeroTBRecorderRecordFailsTheTest(t *testing.T) {
	for _, rec := range []*ingest.TBRecorder{new(ingest.TBRecorder), nil} {
		tb := &fakeTB{name: "TestX"}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("Record of %v panicked: %v", rec, p)
				}
			}()
			rec.Record(tb, ingest.Result{CaseTitle: "a", Passed: true})
		}()
		if len(tb.errors) != 1 || !strings.Contains(tb.errors[0], "unconfigured recorder") {
			t.Errorf("Record of %v reported %q; want one unconfigured recorder error", rec, tb.errors)
		}
		if err := rec.Close(); err != nil { // a deferred Close of a nil recorder must not panic either
			t.Errorf("Close of %v = %v; want nil (nothing to close)", rec, err)
		}
	}
}

// NewReporter refuses a zero Service (not made by NewClient or
// NewService), which could send nothing, as it refuses a nil one.
func TestNewReporterRefusesZeroService(t *testing.T) {
	_, err := ingest.NewReporter(&ingest.Service{}, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{SuiteName: "s"}})
	e := wantCode(t, err, projectops.CodeValidation, "service")
	if !strings.Contains(e.Message, "unconfigured client") {
		t.Errorf("NewReporter(zero Service) = %v; want the unconfigured client's error", err)
	}
}

package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
)

// evalTour runs the demo eval suite (evs_smoke on srv_demo) to its end,
// showing progress and the pass rate.
func evalTour(ctx context.Context, w io.Writer, client *projectops.Client, projectID string) error {
	rc, err := client.Evals.Runs.Create(ctx, projectID, evals.RunParams{SuiteID: "evs_smoke"})
	if err != nil {
		return fmt.Errorf("eval run: %w", err)
	}
	fmt.Fprintf(w, "eval run %s started on suite %s\n", rc.RunID, rc.SuiteID)
	run, err := client.Evals.Runs.Wait(ctx, projectID, rc.RunID,
		evals.WithPollInterval(10*time.Millisecond, 100*time.Millisecond),
		evals.WithProgress(func(r *evals.Run) {
			if r.Summary != nil {
				fmt.Fprintf(w, "  %s: %d/%d iterations done\n", r.Status, r.Summary.Passed+r.Summary.Failed, r.Summary.Total)
			}
		}))
	if err != nil {
		return fmt.Errorf("eval wait: %w", err)
	}
	fmt.Fprintf(w, "eval run %s %s: %s, pass rate %.0f%%\n", run.ID, run.Status, run.Result, run.Summary.PassRate*100)
	return nil
}

// ingestTour reports a small go test -json stream, as `go test -json ./... |
// projectops report` does, and reads the run back through the eval routes.
func ingestTour(ctx context.Context, w io.Writer, client *projectops.Client, projectID string) error {
	const stream = `{"Action":"run","Package":"example.com/shop","Test":"TestCart"}
{"Action":"output","Package":"example.com/shop","Test":"TestCart","Output":"--- PASS: TestCart (0.01s)\n"}
{"Action":"pass","Package":"example.com/shop","Test":"TestCart","Elapsed":0.01}
{"Action":"run","Package":"example.com/shop","Test":"TestRefund"}
{"Action":"output","Package":"example.com/shop","Test":"TestRefund","Output":"    refund_test.go:12: refunded twice\n"}
{"Action":"fail","Package":"example.com/shop","Test":"TestRefund","Elapsed":0.02}
{"Action":"fail","Package":"example.com/shop","Elapsed":0.03}
`
	rep, err := ingest.NewReporter(client.Ingest, ingest.ReporterOptions{Project: projectID, NoSpool: true,
		Run: ingest.RunParams{SuiteName: "quickstart go test", ExternalRunID: "quickstart-1"}})
	if err != nil {
		return err
	}
	st, err := ingest.ReadGoTest(ctx, strings.NewReader(stream), rep, ingest.GoTestOptions{})
	if err != nil {
		return fmt.Errorf("read go test: %w", err)
	}
	out, err := rep.Close(ctx)
	if err == nil {
		err = out.Err // not reported (spooled): out.Run is nil
	}
	if err != nil {
		return fmt.Errorf("report: %w", err)
	}
	fmt.Fprintf(w, "reported go test: %d passed, %d failed as run %s (%s)\n", st.Passed, st.Failed, out.Run.RunID, out.Run.Result)
	for it, err := range client.Evals.Runs.AllIterations(ctx, projectID, out.Run.RunID, nil) {
		if err != nil {
			return fmt.Errorf("read back: %w", err)
		}
		fmt.Fprintf(w, "  read back: %s %s\n", it.Title, it.Result)
	}
	return nil
}

package ingest_test

import (
	"context"
	"fmt"
	"log"
	"log/slog"
	"os"
	"strings"

	"github.com/projectops/projectops-go/option"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// Report results with a Reporter: it picks one-shot or chunked sending and
// finalizes the run on Close.
func ExampleNewReporter() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	spool, _ := os.MkdirTemp("", "spool")
	defer os.RemoveAll(spool)

	ctx := context.Background()
	rep, err := ingest.NewReporter(client.Ingest, ingest.ReporterOptions{
		Run:      ingest.RunParams{SuiteName: "checkout agent", ExternalRunID: "nightly-42"},
		SpoolDir: spool,
	})
	if err != nil {
		log.Fatal(err)
	}
	for _, r := range []ingest.Result{
		{CaseTitle: "finds the order", Passed: true, Model: "gpt-4.1", Provider: "openai",
			ActualToolCalls: []ingest.ToolCall{{ToolName: "lookup_order"}}, Tokens: &ingest.Tokens{Total: 812}},
		{CaseTitle: "refunds twice", Passed: false, Error: "refund called 2 times, want 1"},
	} {
		if err := rep.Record(ctx, r); err != nil {
			log.Fatal(err)
		}
	}
	out, err := rep.Close(ctx)
	if err != nil {
		log.Fatal(err) // only with Strict
	}
	if out.Err != nil { // by default a reporting failure lands here, with out.Run nil
		log.Fatal(out.Err)
	}
	fmt.Println(out.Run.Status, out.Run.Result, out.Run.Summary.Passed, out.Run.Summary.Failed)
	// Output: completed failed 1 1
}

// Stream go test -json output into a run.
func ExampleReadGoTest() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	rep, err := ingest.NewReporter(client.Ingest, ingest.ReporterOptions{
		Run: ingest.RunParams{SuiteName: "go test", ExternalRunID: "ci-7"}, NoSpool: true,
	})
	if err != nil {
		log.Fatal(err)
	}
	stream := `{"Action":"run","Package":"example.com/m","Test":"TestA"}
{"Action":"pass","Package":"example.com/m","Test":"TestA","Elapsed":0.01}
{"Action":"run","Package":"example.com/m","Test":"TestB"}
{"Action":"output","Package":"example.com/m","Test":"TestB","Output":"    m_test.go:9: want 2, got 3\n"}
{"Action":"fail","Package":"example.com/m","Test":"TestB","Elapsed":0.02}
{"Action":"skip","Package":"example.com/m","Test":"TestC","Elapsed":0}
`
	st, err := ingest.ReadGoTest(ctx, strings.NewReader(stream), rep, ingest.GoTestOptions{})
	if err != nil {
		log.Fatal(err)
	}
	out, err := rep.Close(ctx)
	if err == nil {
		err = out.Err // not reported: out.Run is nil
	}
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d passed, %d failed, %d skipped; stored %d\n", st.Passed, st.Failed, st.Skipped, out.Run.Summary.Total)
	// Output: 1 passed, 1 failed, 1 skipped; stored 2
}

// The chunked routes, called directly: start (or reuse) a run, append
// batches (deduplicated on externalIterationId), finalize.
func ExampleService_StartRun() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	run := ingest.RunParams{SuiteName: "smoke", ExternalRunID: "build-1001"}
	st, err := client.Ingest.StartRun(ctx, ingest.DefaultProject, run)
	if err != nil {
		log.Fatal(err)
	}
	batch := []ingest.Result{{CaseTitle: "login", Passed: true, ExternalIterationID: "login-1"}}
	for range 2 { // a retried batch is skipped, not duplicated
		a, err := client.Ingest.AppendIterations(ctx, ingest.DefaultProject, ingest.AppendParams{RunID: st.RunID, Results: batch})
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println("inserted", a.Inserted, "skipped", a.Skipped, "total", a.Total)
	}
	fin, err := client.Ingest.FinalizeRun(ctx, ingest.DefaultProject, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: run.ExternalRunID})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(fin.Status, fin.Result)
	// Output:
	// inserted 1 skipped 0 total 1
	// inserted 0 skipped 1 total 1
	// completed passed
}

// When the service cannot be reached, the results wait in the spool; Resume
// (or "projectops report resume") sends them later and finalizes the run.
func ExampleResume() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient(option.WithMaxRetries(0))
	if err != nil {
		log.Fatal(err)
	}
	spool, _ := os.MkdirTemp("", "spool")
	defer os.RemoveAll(spool)
	ctx := context.Background()

	srv.SetFault("POST /projects/{projectId}/eval-ingest/report", projectopstest.Fault{Status: 503})
	rep, err := ingest.NewReporter(client.Ingest, ingest.ReporterOptions{
		Run: ingest.RunParams{SuiteName: "smoke", ExternalRunID: "deploy-9"}, SpoolDir: spool,
		Logger: slog.New(slog.DiscardHandler),
	})
	if err != nil {
		log.Fatal(err)
	}
	_ = rep.Record(ctx, ingest.Result{CaseTitle: "health check", Passed: true})
	out, _ := rep.Close(ctx) // not Strict: the failure is in out.Err, not returned
	fmt.Println("reported:", out.Err == nil)

	srv.ClearFaults()
	res, err := ingest.Resume(ctx, client.Ingest, spool)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res[0].ExternalRunID, res[0].Resent, res[0].Run.Status, res[0].Run.Result)
	// Output:
	// reported: false
	// deploy-9 1 completed passed
}

// exampleT stands for the *testing.T that a test hands to Record.
type exampleT struct{ name string }

func (t exampleT) Name() string        { return t.name }
func (exampleT) Helper()               {}
func (exampleT) Logf(string, ...any)   {}
func (exampleT) Errorf(string, ...any) {}

// Record eval results from inside go test, then deliver the invocation's
// run once every package is done. In a test package:
//
//	var rec = ingest.NewTBRecorder(ingest.TBOptions{Suite: "agent evals"})
//
//	func TestRefund(t *testing.T) {
//		start := time.Now()
//		// ... drive the agent ...
//		t.Cleanup(func() {
//			rec.Record(t, ingest.Result{Passed: !t.Failed(), DurationMs: float64(time.Since(start).Milliseconds())})
//		})
//	}
//
// then "go test -count=1 ./... ; projectops report resume" (-count=1: a
// package go test answers from its cache records nothing).
func ExampleTBRecorder() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	spool, _ := os.MkdirTemp("", "spool")
	defer os.RemoveAll(spool)

	rec := ingest.NewTBRecorder(ingest.TBOptions{SpoolDir: spool, Suite: "agent evals",
		Project: ingest.DefaultProject}) // left empty: $PROJECTOPS_PROJECT
	rec.Record(exampleT{"TestRefund"}, ingest.Result{Passed: false, Error: "refund called twice",
		ActualToolCalls: []ingest.ToolCall{{ToolName: "refund"}, {ToolName: "refund"}}})
	rec.Record(exampleT{"TestLookup"}, ingest.Result{Passed: true, Tokens: &ingest.Tokens{Total: 640}})
	if err := rec.Close(); err != nil {
		log.Fatal(err)
	}

	// What "projectops report resume" does after go test.
	res, err := ingest.Resume(context.Background(), client.Ingest, spool)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(res[0].Resent, res[0].Run.Status, res[0].Run.Result)
	// Output: 2 completed failed
}

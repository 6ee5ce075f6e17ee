package main

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

const reportRoute = "POST /projects/{projectId}/eval-ingest/report"

// An interrupt while the results are being sent to a stalled service ends
// the command after the grace, not when the service answers; the summary
// names the spool, and resume delivers from it.
func TestReportInterruptBoundsTheClose(t *testing.T) {
	srv := reportEnv(t)
	srv.SetFault(reportRoute, projectopstest.Fault{Latency: 20 * time.Second})
	setGrace(t, time.Second)
	in, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	setStdin(t, bytes.NewReader(in))
	spool := t.TempDir()

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	time.AfterFunc(300*time.Millisecond, cancel) // the interrupt, while the report call stalls
	var stdout, stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"report", "-q", "--spool", spool, "--external-run-id", "intr-1"}, &stdout, &stderr)
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second): // half the stall
		t.Fatal("report still closing 10 s after the interrupt: the close is not bounded")
	}
	errOut := stderr.String()
	if !strings.Contains(errOut, "interrupted: stopped waiting for the service after 1s") ||
		!strings.Contains(errOut, "NOT reported") || !strings.Contains(errOut, "report resume --spool "+spool) {
		t.Errorf("stderr = %q: want the interrupt and the spool named", errOut)
	}
	if files, _ := filepath.Glob(filepath.Join(spool, "*"+ingest.SpoolExt)); len(files) != 1 {
		t.Fatalf("spool files %v", files)
	}
	srv.ClearFaults()
	code, out, errOut := runReportCLI(t, "", "report", "resume", "--spool", spool)
	if code != 0 || !strings.Contains(out, "22 results re-sent") {
		t.Errorf("resume: exit %d, %q %q", code, out, errOut)
	}
}

// -q keeps the summary alone with -- go test too, where report adds -json
// and renders go test's text itself.
func TestReportQuietCommand(t *testing.T) {
	reportEnv(t)
	dir := t.TempDir()
	events := `{"Action":"start","Package":"p"}
{"Action":"run","Package":"p","Test":"TestB"}
{"Action":"output","Package":"p","Test":"TestB","Output":"    b_test.go:9: some detail\n"}
{"Action":"output","Package":"p","Test":"TestB","Output":"--- FAIL: TestB (0.00s)\n"}
{"Action":"fail","Package":"p","Test":"TestB","Elapsed":0.1}
{"Action":"output","Package":"p","Output":"FAIL\n"}
{"Action":"fail","Package":"p","Elapsed":0.1}
`
	if err := os.WriteFile(filepath.Join(dir, "events"), []byte(events), 0o600); err != nil {
		t.Fatal(err)
	}
	fakeGo := filepath.Join(dir, "go")
	if err := os.WriteFile(fakeGo, []byte("#!/bin/sh\ncat "+filepath.Join(dir, "events")+"\nexit 1\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runReportCLI(t, "", "report", "-q", "--external-run-id", "quiet-cmd", "--", fakeGo, "test", "./...")
	if code != 1 || strings.Contains(out, "--- FAIL") || strings.Contains(out, "some detail") {
		t.Fatalf("report -q -- go test: exit %d, stdout %q: -q promises the summary alone", code, out)
	}
	code, out, _ = runReportCLI(t, "", "report", "--external-run-id", "loud-cmd", "--", fakeGo, "test", "./...")
	if code != 1 || !strings.Contains(out, "--- FAIL: TestB") || !strings.Contains(out, "some detail") {
		t.Fatalf("report -- go test: exit %d, stdout %q: want the failing test and its output", code, out)
	}
}

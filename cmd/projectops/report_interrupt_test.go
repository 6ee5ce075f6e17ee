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

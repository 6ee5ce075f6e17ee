//go:build unix

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
)

const stdinTempChild = "PROJECTOPS_TEST_STDIN_TEMP_CHILD"

// The stdin copy report --junit - reads is unlinked from the start: a
// process killed while it sends (SIGKILL, or a second interrupt, which
// ends it without running defers) leaves no copy of the results behind.
func TestReportStdinCopyGoneWhenKilled(t *testing.T) {
	if os.Getenv(stdinTempChild) != "" {
		os.Args = []string{"projectops", "report", "-q", "--junit", "-", "--external-run-id", "stdin-temp"}
		main()
		return
	}
	got := make(chan struct{}, 1)
	stop := make(chan struct{})
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case got <- struct{}{}:
		default:
		}
		select { // the service never answers
		case <-r.Context().Done():
		case <-stop:
		}
	}))
	defer hang.Close()
	defer close(stop)
	tmp := t.TempDir()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestReportStdinCopyGoneWhenKilled$")
	cmd.Env = append(os.Environ(), stdinTempChild+"=1", "TMPDIR="+tmp,
		"PROJECTOPS_BASE_URL="+hang.URL+"/api/v1", "PROJECTOPS_API_KEY=sk_test_stdin",
		ingest.EnvSpoolDir+"="+t.TempDir(), ingest.EnvExternalRunID+"=")
	cmd.Stdin = bytes.NewReader([]byte(`<testsuite><testcase name="a"/><testcase name="b"><failure message="no"/></testcase></testsuite>`))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case <-got: // stdin copied and checked: the results are being sent
	case <-time.After(20 * time.Second):
		_ = cmd.Process.Kill()
		<-exited
		t.Fatalf("report never sent anything; stderr %q", stderr.String())
	}
	_ = cmd.Process.Kill()
	<-exited
	left, _ := filepath.Glob(filepath.Join(tmp, "projectops-report-*"))
	if len(left) != 0 {
		t.Errorf("the stdin copy is left in TMPDIR after the process ended: %v (stderr %q)", left, stderr.String())
	}
}

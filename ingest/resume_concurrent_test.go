package ingest_test

import (
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// Two resumes of one spool directory at once (two `report resume`, or CI
// retrying one): neither fails, and every result is stored exactly once.
// The first is held inside its first upload while the second starts.
func TestConcurrentResume(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeAppend, projectopstest.Fault{Status: 500, Every: 2, Times: 1})
	c := f.client(t, option.WithMaxRetries(0))
	r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkSize = 10; o.Concurrency = 1 })
	rs := results("c", 95, 4)
	record(t, r, rs)
	if out, _ := r.Close(t.Context()); out.SpoolPath == "" {
		t.Fatalf("nothing spooled: %+v", out)
	}

	inner := f.srv.Transport()
	entered, gate := make(chan struct{}), make(chan struct{})
	var once sync.Once
	held := f.client(t, option.WithTransport(rtFunc(func(req *http.Request) (*http.Response, error) {
		if strings.HasSuffix(req.URL.Path, "/runs/iterations") {
			once.Do(func() { close(entered); <-gate })
		}
		return inner.RoundTrip(req)
	})))
	errA, errB := make(chan error, 1), make(chan error, 1)
	go func() { _, err := ingest.Resume(t.Context(), held.Ingest, dir); errA <- err }()
	<-entered
	go func() { _, err := ingest.Resume(t.Context(), f.c.Ingest, dir); errB <- err }()
	// Give the second resume a chance to race the first (it cannot finish
	// while the first holds the spool, so do not wait for it).
	var eb error
	gotB := false
	select {
	case eb = <-errB:
		gotB = true
	case <-time.After(200 * time.Millisecond):
	}
	close(gate)
	ea := <-errA
	if !gotB {
		eb = <-errB
	}
	if ea != nil || eb != nil {
		t.Fatalf("resume errors: first %v, second %v", ea, eb)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].Status != ingest.StatusCompleted {
		t.Fatalf("runs = %+v", runs)
	}
	wantRows(t, f.srv, runs[0].ID, rs)
	if files := spoolFiles(t, dir); len(files) != 0 {
		t.Errorf("spool kept: %v", files)
	}
}

// The default spool directory is the user's own, and Resume sends only
// regular files of this user: a link planted in a spool directory is
// left alone, and nothing of it reaches the service.
func TestResumeSendsOnlyOwnFiles(t *testing.T) {
	t.Parallel()
	if d := ingest.DefaultSpoolDir(func(string) string { return "" }); os.Getuid() >= 0 &&
		!strings.HasSuffix(d, "projectops-spool-"+strconv.Itoa(os.Getuid())) {
		t.Errorf("DefaultSpoolDir = %s, want one per user", d)
	}
	if runtime.GOOS == "windows" {
		return // symlinks need privileges there; the temporary directory is per user
	}
	f := setup(t)
	elsewhere, dir := t.TempDir(), t.TempDir()
	spool := `{"kind":"run","v":1,"project":"default","run":{"suiteName":"planted","externalRunId":"planted-1"}}` + "\n" +
		`{"kind":"chunk","seq":1,"results":[{"caseTitle":"c","passed":true,"externalIterationId":"x"}]}` + "\n"
	target := filepath.Join(elsewhere, "planted"+ingest.SpoolExt)
	if err := os.WriteFile(target, []byte(spool), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, "planted"+ingest.SpoolExt)); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err == nil || len(res) != 0 {
		t.Fatalf("Resume = %+v, %v; want the link refused", res, err)
	}
	if strings.Contains(err.Error(), elsewhere) {
		t.Errorf("the error names the link's target: %v", err)
	}
	// The same file, really in the directory, is sent.
	if err := os.Rename(target, filepath.Join(dir, "own"+ingest.SpoolExt)); err != nil {
		t.Fatal(err)
	}
	_ = os.Remove(filepath.Join(dir, "planted"+ingest.SpoolExt))
	if res, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil || len(res) != 1 || res[0].Resent != 1 {
		t.Fatalf("Resume of an own file = %+v, %v", res, err)
	}
}

package ingest_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// A failed upload keeps its chunk (and every later one) in the spool;
// without Strict Close reports it in the Outcome only, and Resume delivers
// everything exactly once.
func TestReporterFailureAndResume(t *testing.T) {
	t.Parallel()
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprint("strict=", strict), func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			// The third append fails for good (retries included).
			f.srv.SetFault(routeAppend, projectopstest.Fault{Status: 500, Every: 3, Times: 1})
			c := f.client(t, option.WithMaxRetries(0))
			r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkSize = 10; o.Concurrency = 1; o.Strict = strict })
			rs := results("s", 95, 4)
			for _, res := range rs {
				err := r.Record(t.Context(), res)
				if err != nil && !strict {
					t.Fatalf("non-strict Record failed: %v", err)
				}
			}
			out, err := r.Close(t.Context())
			var re *ingest.ReportingError
			if strict != (err != nil) || (strict && !errors.As(err, &re)) {
				t.Fatalf("Close err = %v (strict %v)", err, strict)
			}
			if out.Run != nil || out.Err == nil || out.SpoolPath == "" || out.Local.Total != 95 || out.Sent != 20 {
				t.Fatalf("outcome = %+v", out)
			}
			if !strings.Contains(out.Err.Error(), "projectops report resume") {
				t.Errorf("error does not say how to recover: %v", out.Err)
			}
			runs := f.srv.IngestedRuns("")
			if len(runs) != 1 || runs[0].Status != ingest.StatusRunning || runs[0].Summary.Total != 20 {
				t.Fatalf("runs before resume = %+v", runs)
			}
			res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
			if err != nil {
				t.Fatal(err)
			}
			if len(res) != 1 || res[0].Resent != 75 || res[0].Run.Status != ingest.StatusCompleted {
				t.Fatalf("resume = %+v", res)
			}
			wantRows(t, f.srv, runs[0].ID, rs)
			if files := spoolFiles(t, dir); len(files) != 0 {
				t.Errorf("spool kept after resume: %v", files)
			}
			// A second resume has nothing to do.
			if res, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil || len(res) != 0 {
				t.Errorf("second resume = %+v, %v", res, err)
			}
		})
	}
}

// killChild is set in the child process of TestKillAndResume.
const killChild = "PROJECTOPS_INGEST_KILL_CHILD"

// The reporter's process is killed (SIGKILL) mid-run, with chunks sent,
// chunks failed and chunks still in flight; resume delivers every result
// that was cut into a chunk, exactly once.
func TestKillAndResume(t *testing.T) {
	if os.Getenv(killChild) != "" {
		killChildMain()
		return
	}
	t.Parallel()
	f := setup(t)
	base, err := f.srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	// Every other append stalls until the process dies; the rest succeed.
	f.srv.SetFault(routeAppend, projectopstest.Fault{Latency: time.Hour, Every: 2})
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestKillAndResume$")
	cmd.Env = append(os.Environ(), killChild+"=1", "PROJECTOPS_BASE_URL="+base, "PROJECTOPS_API_KEY="+f.ws.APIKey,
		ingest.EnvSpoolDir+"="+dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "recorded ") {
		_ = cmd.Process.Kill()
		t.Fatalf("child said %q, %v", line, err)
	}
	var n int
	fmt.Sscanf(line, "recorded %d", &n)
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	f.srv.ClearFaults()

	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].Summary.Total == 0 || runs[0].Summary.Total >= n {
		t.Fatalf("before resume: runs %+v (want some but not all of %d rows)", runs, n)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Run.Summary.Total != n {
		t.Fatalf("resume = %+v, want %d rows", res, n)
	}
	wantRows(t, f.srv, runs[0].ID, results("k", n, 3))
}

// killChildMain records results until Concurrency chunks are stuck in
// flight, reports how many it recorded (all cut into chunks), and waits to
// be killed.
func killChildMain() {
	c, err := projectops.NewClient(option.WithRetryBackoff(time.Millisecond, time.Millisecond))
	if err != nil {
		panic(err)
	}
	r, err := ingest.NewReporter(c.Ingest, ingest.ReporterOptions{Run: ingest.RunParams{SuiteName: "killed",
		ExternalRunID: "kill-1"}, ChunkSize: 10, Concurrency: 2, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		panic(err)
	}
	rs := results("k", 200, 3)
	var recorded atomic.Int64
	go func() {
		for _, res := range rs {
			if err := r.Record(context.Background(), res); err != nil {
				panic(err)
			}
			recorded.Add(1)
		}
	}()
	// Record blocks in the cut of a chunk once two chunks stall, so every
	// result recorded so far is in a spooled chunk.
	for last := int64(-1); ; {
		time.Sleep(300 * time.Millisecond)
		if n := recorded.Load(); n == last {
			fmt.Fprintf(os.Stdout, "recorded %d\n", n)
			time.Sleep(time.Hour)
		} else {
			last = n
		}
	}
}

// Close with a cancelled context bounds the uploads, the last chunk's wait
// for a free upload slot included: with every slot held by an append that
// stalls, it returns at once with everything spooled, and Resume stores
// every result once.
func TestCloseWithCancelledContextIsPrompt(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeAppend, projectopstest.Fault{Latency: time.Hour})
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.ChunkSize = 10 })
	rs := results("c", 25, 0)
	record(t, r, rs) // two chunks in flight (both slots), five results buffered
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	done := make(chan *ingest.Outcome, 1)
	go func() { out, _ := r.Close(ctx); done <- out }()
	var out *ingest.Outcome
	select {
	case out = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("Close with a cancelled context waited for the stalled uploads")
	}
	if out.Err == nil || out.SpoolPath == "" {
		t.Fatalf("outcome %+v", out)
	}
	f.srv.ClearFaults()
	if _, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil {
		t.Fatal(err)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].Summary.Total != 25 {
		t.Fatalf("after resume: %+v", runs)
	}
}

// A spool of a run whose id is near the service's 256-character limit is
// delivered to a resumed run all the same: the resumed id is cut to fit
// (it was refused 400, and the spool kept forever).
func TestResumedRunIDFitsTheLimit(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ext := strings.Repeat("e", 250)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 403, Times: 1})
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Run.ExternalRunID = ext })
	mine := results("mine", 4, 2)
	record(t, r, mine)
	if out, err := r.Close(t.Context()); err != nil || out.Err == nil {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	other, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Run.ExternalRunID = ext })
	record(t, other, results("other", 4, 2))
	if _, err := other.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Resent != len(mine) || utf8.RuneCountInString(res[0].ExternalRunID) != 256 {
		t.Fatalf("Resume = %+v, %v: want the results in a resumed run with a 256-character id", res, err)
	}
}

// A one-shot report whose answer is lost (the service stored and finalized
// the run, the reporter never heard back) leaves its results in the spool.
// Resume finds the run complete and leaves it so: its rows are not stored
// a second time in a resumed run (they once were), and the spool is gone.
func TestResumeAfterLostReportAnswerStoresNoDuplicates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	lose := roundTrip(func(req *http.Request) (*http.Response, error) {
		resp, err := f.srv.Transport().RoundTrip(req)
		if err == nil && strings.HasSuffix(req.URL.Path, "/eval-ingest/report") {
			resp.Body.Close()
			return nil, io.ErrUnexpectedEOF // applied, but the answer never arrived
		}
		return resp, err
	})
	c := f.client(t, option.WithTransport(lose), option.WithMaxRetries(2))
	r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.Strict = true })
	rs := results("d", 10, 3)
	record(t, r, rs)
	if _, err := r.Close(t.Context()); err == nil {
		t.Fatal("Close succeeded although every report answer was lost")
	}
	if len(spoolFiles(t, dir)) != 1 {
		t.Fatalf("spool: %v", spoolFiles(t, dir))
	}
	// The network is back: deliver what the spool holds.
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Resent != 0 || res[0].CompletedRunID != "" || res[0].Run == nil ||
		res[0].Run.Summary.Total != len(rs) {
		t.Fatalf("resume = %+v, %v", res, err)
	}
	if files := spoolFiles(t, dir); len(files) != 0 {
		t.Errorf("spool kept: %v", files)
	}
	total := 0
	for _, run := range f.srv.IngestedRuns(f.ws.ProjectID) {
		its, _ := f.srv.IngestedIterations(run.ID)
		t.Logf("run %s (external id %q): %d rows", run.ID, run.Params.ExternalRunID, len(its))
		total += len(its)
	}
	if total != len(rs) {
		t.Errorf("%d rows stored for %d results: the lost answer made Resume store them again", total, len(rs))
	}
}

// A one-shot report lost before it reached the service, whose external run
// id another report then completed with fewer rows than it carried, was
// not stored there: Resume delivers it to a run of its own.
func TestResumeLostReportIntoASmallerCompleteRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c := f.client(t, option.WithTransport(reportTransport(f, false, io.ErrUnexpectedEOF)), option.WithMaxRetries(1))
	_, dir := spoolShared(t, c, "", "mine-", 3, 0)
	completeShared(t, f, "other-", 2, 0)
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 {
		t.Fatalf("resume = %+v, %v", res, err)
	}
	if g := res[0]; g.CompletedRunID != "shared" || !strings.HasPrefix(g.ExternalRunID, "shared-resumed-") || g.Resent != 3 ||
		g.Run == nil || g.Run.Summary.Total != 3 {
		t.Errorf("resume = %+v (run %+v)", g, g.Run)
	}
}

// A one-shot report the service refused (a 4xx: it stored nothing) into a
// run another report then completed goes to a run of its own, whatever the
// size of that run.
func TestResumeRefusedReportIntoACompleteRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: http.StatusForbidden, Times: 1})
	_, dir := spoolShared(t, f.c, "", "mine-", 2, 0)
	completeShared(t, f, "other-", 5, 0)
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].CompletedRunID != "shared" || res[0].Resent != 2 {
		t.Fatalf("resume = %+v, %v", res, err)
	}
}

// A one-shot report refused by a backend that does not know caseId (a 500
// whose validation refused it whole) stored nothing: Resume, once the
// backend is current, delivers it to a run of its own even when another
// reporter completed its external run id with rows just like its own.
func TestResumeIncompatibleBackendReportIntoACompleteRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rt := roundTrip(func(req *http.Request) (*http.Response, error) {
		if !strings.HasSuffix(req.URL.Path, "/eval-ingest/report") {
			return f.srv.Transport().RoundTrip(req)
		}
		_ = req.Body.Close()
		return &http.Response{StatusCode: http.StatusInternalServerError, Header: http.Header{"Content-Type": {"application/json"}},
			Body:    io.NopCloser(strings.NewReader(`{"ok":false,"error":"ArgumentValidationError: Object contains extra field ` + "`caseId`" + ` that is not in the validator."}`)),
			Request: req}, nil
	})
	c := f.client(t, option.WithTransport(rt))
	_, dir := spoolShared(t, c, "", "mine-", 3, 2)
	completeShared(t, f, "other-", 3, 2) // same size, same verdicts
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].CompletedRunID != "shared" || res[0].Resent != 3 {
		t.Errorf("resume = %+v, %v", res, err)
	}
	if n := storedRows(t, f, "mine-"); n != 3 {
		t.Errorf("%d of 3 results of the refused report are stored anywhere", n)
	}
}

// storedRows counts the rows, in any run of the project, whose case title
// starts with prefix.
func storedRows(t *testing.T, f *fixture, prefix string) int {
	t.Helper()
	n := 0
	for _, run := range f.srv.IngestedRuns(f.ws.ProjectID) {
		its, _ := f.srv.IngestedIterations(run.ID)
		for _, it := range its {
			if strings.HasPrefix(it.Input.CaseTitle, prefix) {
				n++
			}
		}
	}
	return n
}

// A one-shot report that provably never reached the service (the
// connection refused on every attempt: the commonest reason a spool
// exists) stored nothing, even when another reporter then completed its
// external run id with rows that look just like its own: Resume delivers
// it to a run of its own. It was once taken as stored there, and lost.
func TestResumeReportThatNeverConnectedIntoACompleteRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	c := f.client(t, option.WithTransport(reportTransport(f, false, refused)), option.WithMaxRetries(1))
	_, dir := spoolShared(t, c, "", "mine-", 3, 2)
	// Same size, same verdicts: only the refusal tells them apart.
	completeShared(t, f, "other-", 3, 2)
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].CompletedRunID != "shared" || res[0].Resent != 3 {
		t.Errorf("resume = %+v, %v", res, err)
	}
	if files := spoolFiles(t, dir); len(files) != 0 {
		t.Errorf("spool kept: %v", files)
	}
	if n := storedRows(t, f, "mine-"); n != 3 {
		t.Errorf("%d of 3 results of the refused-connection report are stored anywhere", n)
	}
}

// A one-shot report whose answer may have been lost is taken as what
// completed its run only when the run holds exactly its rows, as far as
// the summary tells: as many as its distinct iterations, as many passed.
// A run of another reporter that differs in either gets nothing from it;
// the report goes to a run of its own. (It was once enough for the run to
// hold at least as many rows.)
func TestResumeLostReportIntoADifferentCompleteRun(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name             string
		other, otherFail int
	}{{"same size, other verdicts", 3, 0}, {"larger, same verdicts", 4, 1}, {"larger", 5, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			// The report may have arrived, as far as the reporter knows.
			c := f.client(t, option.WithTransport(reportTransport(f, false, io.ErrUnexpectedEOF)), option.WithMaxRetries(1))
			_, dir := spoolShared(t, c, "", "mine-", 3, 1) // all three fail
			completeShared(t, f, "other-", tc.other, tc.otherFail)
			res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
			if err != nil || len(res) != 1 || res[0].CompletedRunID != "shared" || res[0].Resent != 3 {
				t.Errorf("resume = %+v, %v", res, err)
			}
			if n := storedRows(t, f, "mine-"); n != 3 {
				t.Errorf("%d of 3 results of the report are stored anywhere", n)
			}
		})
	}
}

// Two reporters share an external run id (PROJECTOPS_EXTERNAL_RUN_ID, as
// doc'd for several processes) and both send one-shot reports whose
// answers are lost: A's reached the service and completed the run; B's
// never arrived. Only one report can complete a run, so Resume takes one
// of the two spooled report chunks at most as stored there, the one
// written first; it once took both (each was compared with the run's
// summary on its own) and B's results were lost.
func TestResumeTwoLostReportsOneCompletedTheRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := t.TempDir()
	var paths []string
	for _, p := range []struct {
		prefix string
		arrive bool
	}{{"A-", true}, {"B-", false}} {
		c := f.client(t, option.WithTransport(reportTransport(f, p.arrive, io.ErrUnexpectedEOF)), option.WithMaxRetries(0))
		spool, _ := spoolShared(t, c, dir, p.prefix, 3, 0) // the answer lost
		paths = append(paths, spool)
	}
	// A was written first, and its file says so: two files written within
	// one tick of the file system's clock tie, and a tie is the case
	// TestResumeTwoLostReportsSameModTime covers (both resent).
	first := time.Now().Add(-time.Minute).Truncate(time.Second)
	for i, p := range paths {
		if err := os.Chtimes(p, first.Add(time.Duration(i)*time.Second), first.Add(time.Duration(i)*time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	t.Logf("resume = %+v, %v", res, err)
	if a, b := storedRows(t, f, "A-"), storedRows(t, f, "B-"); a != 3 || b != 3 {
		t.Errorf("stored anywhere: %d of A's 3 results, %d of B's 3 (B's report never reached the service)", a, b)
	}
}

// Two lost reports of the same counts whose spool files have the same
// modification time (coarse file-system clocks: Linux stamps at tick
// resolution, some file systems at 1-2 s), B's name sorting first: the
// names are random, so nothing orders them, and B's (never delivered)
// must not be taken as stored.
func TestResumeTwoLostReportsSameModTime(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := t.TempDir()
	var paths []string
	for _, p := range []struct {
		prefix string
		arrive bool
	}{{"A-", true}, {"B-", false}} {
		c := f.client(t, option.WithTransport(reportTransport(f, p.arrive, io.ErrUnexpectedEOF)), option.WithMaxRetries(0))
		spool, _ := spoolShared(t, c, dir, p.prefix, 3, 0)
		paths = append(paths, spool)
	}
	// B's name sorts first, as a random suffix makes it half the time.
	bPath := filepath.Join(dir, "shared.1-00000000"+ingest.SpoolExt)
	if err := os.Rename(paths[1], bPath); err != nil {
		t.Fatal(err)
	}
	tie := time.Now().Truncate(time.Second)
	for _, p := range []string{paths[0], bPath} {
		if err := os.Chtimes(p, tie, tie); err != nil {
			t.Fatal(err)
		}
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	t.Logf("resume = %+v, %v", res, err)
	// Neither can be taken as the one that completed the run: both go to
	// the resumed run, A's a second time (a duplicate at worst), B's not lost.
	if a, b := storedRows(t, f, "A-"), storedRows(t, f, "B-"); b != 3 || (a != 3 && a != 6) {
		t.Errorf("stored: %d rows of A's 3 results, %d of B's 3 (B's report never reached the service)", a, b)
	}
}

// reportTransport sends every request to f's double but the one-shot
// report's, which fails with err; when arrive is set the report reaches
// the double first (stored, its answer lost).
func reportTransport(f *fixture, arrive bool, err error) http.RoundTripper {
	return roundTrip(func(req *http.Request) (*http.Response, error) {
		if !strings.HasSuffix(req.URL.Path, "/eval-ingest/report") {
			return f.srv.Transport().RoundTrip(req)
		}
		if arrive {
			if resp, rerr := f.srv.Transport().RoundTrip(req); rerr == nil {
				resp.Body.Close()
			}
		}
		return nil, err
	})
}

// spoolShared reports n results titled prefix (failEvery as results has
// it) as the external run "shared" through c, whose report fails, and
// returns the spool file and its directory (dir, or a new one for "").
func spoolShared(t *testing.T, c *projectops.Client, dir, prefix string, n, failEvery int) (spool, spoolDir string) {
	t.Helper()
	r, d := newReporter(t, c, func(o *ingest.ReporterOptions) {
		o.Run.ExternalRunID = "shared"
		if dir != "" {
			o.SpoolDir = dir
		}
	})
	record(t, r, results(prefix, n, failEvery))
	out, _ := r.Close(t.Context())
	if out.SpoolPath == "" {
		t.Fatal("nothing spooled")
	}
	return out.SpoolPath, d
}

// completeShared has another reporter complete the external run "shared"
// with n results titled prefix.
func completeShared(t *testing.T, f *fixture, prefix string, n, failEvery int) {
	t.Helper()
	other, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Run.ExternalRunID = "shared" })
	record(t, other, results(prefix, n, failEvery))
	if _, err := other.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// A refusal (here a project that does not exist) is said to need fixing
// before a resume, which re-sends to the same project; a failure that may
// pass later says plainly to resume.
func TestReportingErrorSaysWhenResumeHelps(t *testing.T) {
	t.Parallel()
	refused := (&ingest.ReportingError{SpoolPath: "/spool/r.spool.jsonl",
		Err: &projectops.Error{StatusCode: 404, Code: projectops.CodeNotFound, Message: "Project not found"}}).Error()
	down := (&ingest.ReportingError{SpoolPath: "/spool/r.spool.jsonl",
		Err: &projectops.Error{StatusCode: 503, Code: projectops.CodeServerUnreachable}}).Error()
	ended := (&ingest.ReportingError{SpoolPath: "/spool/r.spool.jsonl", // resume sends them to a run of their own
		Err: &projectops.Error{StatusCode: 409, Code: projectops.CodeConflict}}).Error()
	if strings.Contains(ended, "refused") {
		t.Errorf("conflict: %q", ended)
	}
	if !strings.Contains(refused, "the service refused the results") || !strings.Contains(refused, "fix the cause first") {
		t.Errorf("refusal: %q", refused)
	}
	if strings.Contains(down, "refused") || !strings.Contains(down, "send them with: projectops report resume --spool /spool") {
		t.Errorf("outage: %q", down)
	}
}

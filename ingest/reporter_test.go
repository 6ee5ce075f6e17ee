package ingest_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// newReporter returns a reporter on c spooling into a fresh directory.
func newReporter(t *testing.T, c *projectops.Client, mod func(*ingest.ReporterOptions)) (*ingest.Reporter, string) {
	t.Helper()
	dir := t.TempDir()
	opt := ingest.ReporterOptions{Run: ingest.RunParams{SuiteName: "suite", ExternalRunID: "ext-" + t.Name()},
		SpoolDir: dir, Getenv: func(string) string { return "" }, Logger: slog.New(slog.DiscardHandler)}
	if mod != nil {
		mod(&opt)
	}
	r, err := ingest.NewReporter(c.Ingest, opt)
	if err != nil {
		t.Fatal(err)
	}
	return r, dir
}

func record(t *testing.T, r *ingest.Reporter, rs []ingest.Result) {
	t.Helper()
	for _, res := range rs {
		if err := r.Record(t.Context(), res); err != nil {
			t.Fatal(err)
		}
	}
}

// wantRows asserts the run holds exactly the given results, once each.
func wantRows(t *testing.T, srv *projectopstest.Server, runID string, rs []ingest.Result) {
	t.Helper()
	iters, ok := srv.IngestedIterations(runID)
	if !ok {
		t.Fatalf("no run %s", runID)
	}
	want := map[string]bool{}
	for _, r := range rs {
		want[r.CaseTitle] = r.Passed
	}
	got := map[string]int{}
	for _, it := range iters {
		got[it.Input.CaseTitle]++
		if p, ok := want[it.Input.CaseTitle]; !ok || p != (it.Result == ingest.ResultPassed) {
			t.Errorf("unexpected row %q result %s", it.Input.CaseTitle, it.Result)
		}
	}
	for title := range want {
		if got[title] != 1 {
			t.Errorf("row %q stored %d times, want once", title, got[title])
		}
	}
	if len(iters) != len(rs) {
		t.Errorf("%d rows, want %d", len(iters), len(rs))
	}
}

func spoolFiles(t *testing.T, dir string) []string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join(dir, "*"+ingest.SpoolExt))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestReporterOneShot(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, dir := newReporter(t, f.c, nil)
	rs := results("one", 5, 5)
	record(t, r, rs)
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if out.Run == nil || out.Run.Status != ingest.StatusCompleted || out.Run.Summary.Total != 5 || out.Sent != 5 || out.Chunks != 1 {
		t.Fatalf("outcome = %+v run %+v", out, out.Run)
	}
	if n := len(routeStatuses(f.srv, routeReport)); n != 1 || len(routeStatuses(f.srv, routeStart)) != 0 {
		t.Errorf("report calls %d, start calls %d: want one report only", n, len(routeStatuses(f.srv, routeStart)))
	}
	wantRows(t, f.srv, out.Run.RunID, rs)
	if files := spoolFiles(t, dir); len(files) != 0 {
		t.Errorf("spool left behind: %v", files)
	}
	if err := r.Record(t.Context(), rs[0]); !errors.Is(err, ingest.ErrReporterClosed) {
		t.Errorf("Record after Close: %v", err)
	}
	if err := r.Record(t.Context(), ingest.Result{}); err == nil {
		t.Error("empty title accepted")
	} else {
		wantCode(t, err, projectops.CodeValidation, "caseTitle")
	}
}

func TestReporterChunked(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var mu sync.Mutex
	var last ingest.Progress
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.Progress = func(p ingest.Progress) {
			mu.Lock()
			defer mu.Unlock()
			if p.Sent >= last.Sent {
				last = p
			}
		}
	})
	rs := results("c", 450, 7)
	// Results without ids get deterministic ones; a repeated title is a
	// second occurrence, not a duplicate.
	rs = append(rs, ingest.Result{CaseTitle: "same", Passed: true}, ingest.Result{CaseTitle: "same", Passed: true})
	record(t, r, rs)
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(len(routeStatuses(f.srv, routeStart)), len(routeStatuses(f.srv, routeAppend)),
		len(routeStatuses(f.srv, routeFinalize)), len(routeStatuses(f.srv, routeReport))); got != "1 3 1 0" {
		t.Errorf("start/append/finalize/report calls = %s, want 1 3 1 0", got)
	}
	if out.Run.Summary.Total != 452 || out.Local.Total != 452 || out.Sent != 452 || out.Run.Summary.Failed != 64 {
		t.Errorf("outcome %+v, run summary %+v", out, out.Run.Summary)
	}
	iters, _ := f.srv.IngestedIterations(out.Run.RunID)
	if len(iters) != 452 {
		t.Fatalf("rows = %d", len(iters))
	}
	var same []string
	for _, it := range iters {
		if it.Input.CaseTitle == "same" {
			same = append(same, it.Input.ExternalIterationID)
		}
	}
	slices.Sort(same)
	a, b := same[0], same[1]
	if a == "" || a == b || !slices.Contains(same, ingest.IterationID(1, "same", "")) || !slices.Contains(same, ingest.IterationID(2, "same", "")) {
		t.Errorf("derived ids %q %q", a, b)
	}
	if mu.Lock(); last.Sent != 452 || last.Chunks != 3 {
		t.Errorf("last progress = %+v", last)
	}
	mu.Unlock()
	if files := spoolFiles(t, dir); len(files) != 0 {
		t.Errorf("spool left behind: %v", files)
	}

	// Running the reporter again over the same results and external id
	// stores nothing new.
	r2, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Run.ExternalRunID = "ext-" + t.Name() })
	record(t, r2, rs)
	out2, err := r2.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if out2.Run.RunID != out.Run.RunID || out2.Run.Summary.Total != 452 {
		t.Errorf("re-run: %+v", out2.Run)
	}
}

// Chunks respect the byte limit; a result alone over it is cut with a
// visible marker.
func TestReporterChunkBytes(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var mu sync.Mutex
	var sizes []int
	rec := &recorder{next: f.srv.Transport(), onBody: func(route string, n int) {
		mu.Lock()
		defer mu.Unlock()
		if strings.HasSuffix(route, "/runs/iterations") {
			sizes = append(sizes, n)
		}
	}}
	c := f.client(t, option.WithTransport(rec))
	const limit = 16 << 10
	r, _ := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkBytes = limit; o.Concurrency = 1 })
	rs := results("b", 30, 0)
	for i := range rs {
		rs[i].Error = strings.Repeat("e", 3000)
	}
	big := ingest.Result{CaseTitle: "huge", Error: "HEAD" + strings.Repeat("é", 40_000) + "TAIL", ExternalIterationID: "huge"}
	record(t, r, append(rs, big))
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if len(sizes) < 6 {
		t.Errorf("only %d chunks for ~100 KiB", len(sizes))
	}
	for _, n := range sizes {
		if n > limit {
			t.Errorf("chunk of %d bytes over the %d limit", n, limit)
		}
	}
	iters, _ := f.srv.IngestedIterations(out.Run.RunID)
	last := iters[len(iters)-1].Input
	if len(iters) != 31 || !strings.HasPrefix(last.Error, "HEAD") || !strings.HasSuffix(last.Error, "TAIL") ||
		!strings.Contains(last.Error, "truncated by projectops") || out.Truncated != 1 {
		t.Errorf("rows %d, truncated %d, huge error %.60q…", len(iters), out.Truncated, last.Error)
	}
}

// Every spelling of the API-key header is redacted in every form, sent and
// spooled: with or without X-, "Name: v" lines, name=v pairs and Go's
// printed map (only "X-Api-Key:" was once).
func TestReporterRedactsEveryAPIKeySpelling(t *testing.T) {
	t.Parallel()
	const secret = "hunter2hunter2hunter2"
	for _, line := range []string{
		"X-Api-Key: " + secret, // redacted (control)
		"Api-Key: " + secret,
		"api-key=" + secret,
		"map[Api-Key:[" + secret + "] Content-Type:[application/json]]",
		"GET /v1?api_key=" + secret,
		"APIKEY: " + secret,
		"X-Auth-Token: " + secret,
		`{"apiKey":"` + secret + `"}`,
		`[{"name":"Authorization","value":"` + secret + `"}]`,
	} {
		// Sent: the row the service stores.
		f := setup(t)
		r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Strict = true })
		record(t, r, []ingest.Result{{CaseTitle: "TestHeaders", Error: "request headers: " + line}})
		out, err := r.Close(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		its, _ := f.srv.IngestedIterations(out.Run.RunID)
		if len(its) != 1 {
			t.Fatalf("rows: %+v", its)
		}
		if strings.Contains(string(its[0].Raw), secret) {
			t.Errorf("%q: sent to the service in clear: %s", line, its[0].Raw)
		}

		// Spooled: the file a failed reporter leaves behind.
		g := setup(t)
		g.srv.SetFault(routeReport, projectopstest.Fault{Status: 400})
		r, dir := newReporter(t, g.c, nil)
		record(t, r, []ingest.Result{{CaseTitle: "TestHeaders", Error: "request headers: " + line}})
		out, _ = r.Close(t.Context())
		b, err := os.ReadFile(out.SpoolPath)
		if err != nil {
			t.Fatalf("spool in %s: %v", dir, err)
		}
		if strings.Contains(string(b), secret) {
			t.Errorf("%q: written to the spool file in clear", line)
		}
	}
}

// Nothing secret is sent or spooled.
func TestReporterRedaction(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 400, Times: 1})
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.Redact = func(s string) string { return strings.ReplaceAll(s, "hunter2", "<pw>") }
	})
	secrets := []string{f.ws.APIKey, "sk_live_abcdefghijkl", "Bearer eyJhbGciOiJIUzI1NiJ9.payload", "sessionid=abc123",
		"user:pa55word@", "hunter2", "Basic dXNlcjpwYXNz",
		// Header names as Go prints them: canonical, in a printed map, as map keys.
		"xk_live_9f8e7d6c5b", "mapsecret1234", "gosyntax5678", "keyedsecret42"}
	res := ingest.Result{CaseTitle: "leaky", Passed: false,
		Error: "key " + f.ws.APIKey + " token sk_live_abcdefghijkl\nAuthorization: Basic dXNlcjpwYXNz\nCookie: sessionid=abc123\n" +
			"GET https://user:pa55word@example.com/x\nAuthorization header: Bearer eyJhbGciOiJIUzI1NiJ9.payload done",
		Metadata:        map[string]any{"password": "hunter2", "nested": "Bearer eyJhbGciOiJIUzI1NiJ9.payload"},
		ActualToolCalls: []ingest.ToolCall{{ToolName: "login", Arguments: map[string]any{"pw": "hunter2"}}}}
	// No other header in this one: nothing else may trigger the rule.
	apiKey := ingest.Result{CaseTitle: "leaky api key", Passed: false,
		Error: "X-Api-Key: xk_live_9f8e7d6c5b\nheaders map[Accept:[*/*] X-Api-Key:[mapsecret1234]] and " +
			`http.Header{"X-Api-Key":[]string{"gosyntax5678"}}`,
		Metadata: map[string]any{"headers": "map[x-Api-kEY:[keyedsecret42]]"}}
	record(t, r, []ingest.Result{res, apiKey})
	out, err := r.Close(t.Context())
	if err != nil || out.SpoolPath == "" {
		t.Fatalf("Close = %+v, %v: want a spooled failure", out, err)
	}
	spooled, err := os.ReadFile(out.SpoolPath)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil {
		t.Fatal(err)
	}
	run := f.srv.IngestedRuns(f.ws.ProjectID)[0]
	iters, _ := f.srv.IngestedIterations(run.ID)
	var sent string
	for _, it := range iters {
		sent += fmt.Sprintf("%+v\n", it.Input)
	}
	for _, s := range secrets {
		if strings.Contains(sent, s) || strings.Contains(string(spooled), s) {
			t.Errorf("secret %q survived (sent: %v, spooled: %v)", s, strings.Contains(sent, s), strings.Contains(string(spooled), s))
		}
	}
	if !strings.Contains(sent, "GET https://[REDACTED]@example.com/x") || !strings.Contains(sent, "<pw>") {
		t.Errorf("redacted text lost its shape: %s", sent)
	}
}

// Record is safe for concurrent use (parallel tests recording into one
// reporter): every result is stored once.
func TestReporterConcurrentRecord(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.ChunkSize = 30; o.Strict = true })
	var all []ingest.Result
	var wg sync.WaitGroup
	for g := range 8 {
		rs := results(fmt.Sprintf("g%d-", g), 100, 6)
		all = append(all, rs...)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for _, res := range rs {
				if err := r.Record(t.Context(), res); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	if err := r.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	wantRows(t, f.srv, out.Run.RunID, all)
}

// A chunk's upload does not depend on the context of the Record call that
// cut it: a per-call context that ends right after Record returns loses
// nothing. A Close whose context has already ended abandons the uploads
// and keeps the results in the spool.
func TestReporterUploadOutlivesRecordContext(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// Every append waits a little, so chunks are still in flight when
	// each Record's context ends.
	f.srv.SetFault("POST /projects/{projectId}/eval-ingest/runs/iterations", projectopstest.Fault{Latency: 20 * time.Millisecond})
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.ChunkSize = 5; o.Strict = true })
	rs := results("ctx-", 40, 4)
	for _, res := range rs {
		ctx, cancel := context.WithCancel(t.Context())
		err := r.Record(ctx, res)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
	}
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatalf("Close: %v", err)
	}
	wantRows(t, f.srv, out.Run.RunID, rs)

	r2, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.ChunkSize = 5 })
	record(t, r2, results("gone-", 20, 4))
	done, cancel := context.WithCancel(t.Context())
	cancel()
	out2, err := r2.Close(done)
	if err != nil || out2.Err == nil || out2.SpoolPath == "" {
		t.Fatalf("Close with an ended context: out %+v, err %v; want a non-strict failure naming the spool", out2, err)
	}
	if !strings.HasPrefix(out2.SpoolPath, dir) {
		t.Errorf("spool %q not under %q", out2.SpoolPath, dir)
	}
}

// A pass rate the service refuses on every request is refused before
// anything is spooled: a Resume could never send those results.
func TestReporterRefusesAnImpossiblePassRate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, rate := range []float64{-5, 100.5, 150, math.NaN()} {
		dir := t.TempDir()
		_, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{SpoolDir: dir,
			Run: ingest.RunParams{SuiteName: "s", PassCriteria: &ingest.PassCriteria{MinimumPassRate: rate}}})
		wantCode(t, err, projectops.CodeValidation, "passCriteria.minimumPassRate")
		if files, _ := os.ReadDir(dir); len(files) != 0 {
			t.Errorf("rate %v: %d spool files", rate, len(files))
		}
	}
}

// A result too large for a chunk is cut in proportion to its encoding:
// text that escapes heavily (quotes, backslashes) keeps as much as fits,
// not just the marker.
func TestOversizedEscapedTextKeepsWhatFits(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, _ := newReporter(t, f.c, nil)
	errText := strings.Repeat(`{\"key\":\"v\"},`, 2<<20/17)
	record(t, r, []ingest.Result{{CaseTitle: "escaped", Passed: false, Error: errText}})
	out, err := r.Close(t.Context())
	if err != nil || out.Err != nil {
		t.Fatalf("%v %v", err, out.Err)
	}
	iters, _ := f.srv.IngestedIterations(out.Run.RunID)
	// About 1 MiB of JSON fits, and this text encodes at 1.5 bytes a byte.
	if got := iters[0].Input.Error; len(got) < 500<<10 || !strings.Contains(got, "truncated by projectops") {
		t.Errorf("kept %d of %d bytes", len(got), len(errText))
	}
}

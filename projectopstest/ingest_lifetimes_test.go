package projectopstest_test

import (
	"bytes"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// ingestFixture reaches one workspace's eval-ingest routes in process.
type ingestFixture struct {
	srv  *projectopstest.Server
	tg   target
	key  string
	base string // …/projects/<id>/eval-ingest
}

func newIngestFixture(t *testing.T, opts ...projectopstest.Option) ingestFixture {
	t.Helper()
	srv := projectopstest.NewTestServer(t, append([]projectopstest.Option{noLimit}, opts...)...)
	ws := srv.Default()
	return ingestFixture{srv: srv, tg: inproc(srv), key: ws.APIKey, base: "/projects/" + ws.ProjectID + "/eval-ingest"}
}

// mint returns the path (under the API) of a fresh upload URL.
func (f ingestFixture) mint(t *testing.T) string {
	t.Helper()
	var up struct {
		UploadURL string `json:"uploadUrl"`
	}
	f.tg.call(t, "POST", f.base+"/artifacts/upload-url", f.key, `{}`).decode(t, &up)
	return strings.TrimPrefix(up.UploadURL, f.srv.URL())
}

// upload stores data through a fresh upload URL and returns its storageId.
func (f ingestFixture) upload(t *testing.T, data string) string {
	t.Helper()
	var stored struct {
		StorageID string `json:"storageId"`
	}
	f.tg.call(t, "POST", f.mint(t), "", data).decode(t, &stored)
	return stored.StorageID
}

// widgetSnapshot is one widget snapshot naming blob, as the service's
// reporter sends it once the widget HTML went through an upload URL
// (reference-notes.md 3.8, artifacts/upload-url row).
func widgetSnapshot(blob string) string {
	return `{"toolCallId":"tc1","toolName":"search","protocol":"mcp-apps","serverId":"srv_1","resourceUri":"ui://books",
 "toolMetadata":{},"widgetCsp":null,"widgetPermissions":null,"widgetPermissive":false,"prefersBorder":true,"widgetHtmlBlobId":"` + blob + `"}`
}

// report sends a one-shot report of one result naming blobs, and returns
// the answer.
func (f ingestFixture) report(t *testing.T, ext string, blobs ...string) result {
	t.Helper()
	snaps := make([]string, len(blobs))
	for i, b := range blobs {
		snaps[i] = widgetSnapshot(b)
	}
	res := `{"caseTitle":"c","query":"q","passed":true,"externalIterationId":"it-1","widgetSnapshots":[` + strings.Join(snaps, ",") + `]}`
	return f.tg.call(t, "POST", f.base+"/report", f.key, `{"suiteName":"s","externalRunId":"`+ext+`","results":[`+res+`]}`)
}

// heapInUse is the live heap after a full collection.
func heapInUse() uint64 {
	var ms runtime.MemStats
	for range 2 {
		runtime.GC()
	}
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// TestMaxRunsReleasesUploadedArtifacts: WithMaxRuns bounds a long
// session's memory (docs/double.md), so the widget HTML a reporter uploads
// for each run (reference-notes.md 3.8: the result keeps only
// widgetHtmlBlobId) goes with the run that names it when that run is
// dropped, instead of staying for the server's life.
func TestMaxRunsReleasesUploadedArtifacts(t *testing.T) {
	f := newIngestFixture(t, projectopstest.WithMaxRuns(2))
	blob := string(bytes.Repeat([]byte("<p>widget</p>"), (1<<20)/13)) // ~1 MiB of widget HTML
	report := func(i int) {
		f.report(t, fmt.Sprintf("ext-%d", i), f.upload(t, blob)).decode(t, &struct{}{})
	}
	for i := range 4 { // warm up: the cap is reached, dropping has begun
		report(i)
	}
	before := heapInUse()
	const n = 40
	for i := range n {
		report(100 + i)
	}
	grown := int64(heapInUse()) - int64(before)
	// Kept, 40 uploads of 1 MiB add ~40 MiB; with only the newest runs'
	// blobs kept, a few MiB at most.
	if grown > 12<<20 {
		t.Errorf("heap grew by %d MiB over %d reports under WithMaxRuns(2): the dropped runs' uploaded artifacts are kept",
			grown>>20, n)
	}
	runtime.KeepAlive(f.srv)
}

// TestArtifactLivesWithItsRuns: an artifact a stored run names outlives
// ArtifactTTL, and is released when the last run naming it is dropped;
// a result naming it then is refused as one naming an unknown blob.
func TestArtifactLivesWithItsRuns(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newIngestFixture(t, projectopstest.WithMaxRuns(1), projectopstest.WithClock(clk.Now))
	a := f.upload(t, "<p>a</p>")
	f.report(t, "r1", a).decode(t, &struct{}{})
	clk.Advance(projectopstest.ArtifactTTL + time.Minute)
	f.report(t, "r2", a).decode(t, &struct{}{}) // r1 is dropped; r2 still names a
	if _, _, ok := f.srv.Artifact(a); !ok {
		t.Fatal("an artifact a stored run names was released")
	}
	f.report(t, "r3").decode(t, &struct{}{}) // r2 is dropped: nothing names a
	if _, _, ok := f.srv.Artifact(a); ok {
		t.Error("an artifact is kept after the last run naming it was dropped")
	}
	f.report(t, "r4", a).wantField(t, "results[0].widgetSnapshots[0].widgetHtmlBlobId")
}

// TestUnreferencedArtifactLapses: under WithMaxRuns an artifact no result
// names is kept ArtifactTTL after its upload, then released: a result
// naming it is refused as one naming an unknown blob. One named in time
// stays.
func TestUnreferencedArtifactLapses(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newIngestFixture(t, projectopstest.WithMaxRuns(100), projectopstest.WithClock(clk.Now))
	named, late := f.upload(t, "<p>named</p>"), f.upload(t, "<p>late</p>")
	clk.Advance(projectopstest.ArtifactTTL - time.Second)
	f.report(t, "in-time", named).decode(t, &struct{}{})
	clk.Advance(time.Second)
	if _, _, ok := f.srv.Artifact(late); ok {
		t.Error("an artifact no run names is kept past ArtifactTTL")
	}
	f.report(t, "late", late).wantField(t, "results[0].widgetSnapshots[0].widgetHtmlBlobId")
	if _, _, ok := f.srv.Artifact(named); !ok {
		t.Error("an artifact a stored run names lapsed")
	}
}

// TestUnboundedDoubleKeepsArtifacts: without WithMaxRuns the double keeps
// every artifact, as the service's storage does, so a report resumed long
// after its upload (or under a test clock that jumps) still names it.
func TestUnboundedDoubleKeepsArtifacts(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newIngestFixture(t, projectopstest.WithClock(clk.Now))
	late := f.upload(t, "<p>late</p>")
	clk.Advance(10 * projectopstest.ArtifactTTL)
	f.mint(t) // a mint sweeps
	if _, _, ok := f.srv.Artifact(late); !ok {
		t.Fatal("an unbounded double released an artifact no run names yet")
	}
	f.report(t, "late", late).decode(t, &struct{}{})
}

// TestUploadURLForgottenAfterSecondTTL: a used or expired upload URL
// answers 403 until a second UploadURLTTL after its expiry, then 404, as
// a URL the double never minted (it forgets it).
func TestUploadURLForgottenAfterSecondTTL(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newIngestFixture(t, projectopstest.WithClock(clk.Now))
	used, unused := f.mint(t), f.mint(t)
	if r := f.tg.call(t, "POST", used, "", "x"); r.status != http.StatusOK {
		t.Fatalf("first upload: %d %s", r.status, r.body)
	}
	for _, step := range []struct {
		advance time.Duration
		want    int
	}{
		{0, http.StatusForbidden},                               // used (unused is still good: not sent yet)
		{projectopstest.UploadURLTTL, http.StatusForbidden},     // both expired
		{projectopstest.UploadURLTTL - 1, http.StatusForbidden}, // the last instant before forgetting
		{1, http.StatusNotFound},                                // forgotten
	} {
		clk.Advance(step.advance)
		paths := []string{used}
		if step.advance > 0 {
			paths = append(paths, unused)
		}
		for _, p := range paths {
			if r := f.tg.call(t, "POST", p, "", "x"); r.status != step.want {
				t.Errorf("+%v: upload answered %d %s, want %d", step.advance, r.status, r.body, step.want)
			}
		}
	}
}

// TestRefusedReportLeavesNoRun: a one-shot report refused for a lapsed or
// unknown artifact stores no run and no suite. A run it left in flight
// would never end, and WithMaxRuns never drops a run in flight, so each
// refusal would grow the store the cap bounds.
func TestRefusedReportLeavesNoRun(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newIngestFixture(t, projectopstest.WithMaxRuns(1), projectopstest.WithClock(clk.Now))
	a := f.upload(t, "<p>a</p>")
	clk.Advance(projectopstest.ArtifactTTL)
	for i := range 3 {
		f.report(t, fmt.Sprintf("late-%d", i), a).wantField(t, "results[0].widgetSnapshots[0].widgetHtmlBlobId")
	}
	f.report(t, "unknown", "kg_never_uploaded").wantField(t, "results[0].widgetSnapshots[0].widgetHtmlBlobId")
	if runs := f.srv.IngestedRuns(""); len(runs) != 0 {
		t.Errorf("refused reports left %d runs under WithMaxRuns(1): %+v", len(runs), runs)
	}
	var suites struct {
		Items []struct {
			ID   string `json:"id"`
			Name string `json:"name"`
		} `json:"items"`
	}
	f.tg.call(t, "GET", "/projects/"+f.srv.Default().ProjectID+"/eval-suites", f.key, nil).decode(t, &suites)
	for _, s := range suites.Items {
		if s.Name == "s" {
			t.Errorf("a refused report created its suite %s", s.ID)
		}
	}
	// A report that is taken still is, and becomes the one stored run.
	f.report(t, "taken").decode(t, &struct{}{})
	if runs := f.srv.IngestedRuns(""); len(runs) != 1 {
		t.Errorf("after one taken report %d runs are stored, want 1", len(runs))
	}
}

// TestOnlyStoredResultsHoldArtifacts: an artifact lives with a run only
// while a result the run keeps names it. A result skipped as a repeated
// externalIterationId is not kept, nor is any under WithIngestDiscard, so
// the artifact it names lapses after ArtifactTTL as an unnamed one does.
func TestOnlyStoredResultsHoldArtifacts(t *testing.T) {
	t.Parallel()
	result := func(blob string) string {
		snaps := ""
		if blob != "" {
			snaps = widgetSnapshot(blob)
		}
		return `{"caseTitle":"c","passed":true,"externalIterationId":"it-1","widgetSnapshots":[` + snaps + `]}`
	}
	t.Run("skipped repeat", func(t *testing.T) {
		t.Parallel()
		clk := newFakeClock()
		f := newIngestFixture(t, projectopstest.WithMaxRuns(10), projectopstest.WithClock(clk.Now))
		a := f.upload(t, "<p>a</p>")
		var run struct {
			RunID string `json:"runId"`
		}
		f.tg.call(t, "POST", f.base+"/runs/start", f.key, `{"suiteName":"s","externalRunId":"r"}`).decode(t, &run)
		appendRes := func(res string) (out struct{ Inserted, Skipped int }) {
			f.tg.call(t, "POST", f.base+"/runs/iterations", f.key, `{"runId":"`+run.RunID+`","results":[`+res+`]}`).decode(t, &out)
			return out
		}
		appendRes(result(""))
		if out := appendRes(result(a)); out.Skipped != 1 {
			t.Fatalf("the repeat was not skipped: %+v", out)
		}
		clk.Advance(projectopstest.ArtifactTTL)
		if _, _, ok := f.srv.Artifact(a); ok {
			t.Error("an artifact named only by a skipped result outlived ArtifactTTL")
		}
	})
	t.Run("discard", func(t *testing.T) {
		t.Parallel()
		clk := newFakeClock()
		f := newIngestFixture(t, projectopstest.WithMaxRuns(10), projectopstest.WithClock(clk.Now), projectopstest.WithIngestDiscard())
		a := f.upload(t, "<p>a</p>")
		f.report(t, "r", a).decode(t, &struct{}{})
		clk.Advance(projectopstest.ArtifactTTL)
		if _, _, ok := f.srv.Artifact(a); ok {
			t.Error("under WithIngestDiscard an artifact named by a result no run keeps outlived ArtifactTTL")
		}
	})
	t.Run("stored", func(t *testing.T) {
		t.Parallel()
		clk := newFakeClock()
		f := newIngestFixture(t, projectopstest.WithMaxRuns(10), projectopstest.WithClock(clk.Now))
		a := f.upload(t, "<p>a</p>")
		f.report(t, "r", a).decode(t, &struct{}{})
		clk.Advance(projectopstest.ArtifactTTL)
		if _, _, ok := f.srv.Artifact(a); !ok {
			t.Error("an artifact a stored result names lapsed")
		}
	})
}

// TestNotesNameArtifact: projectops report --upload names the raw file it
// uploads only in the run's notes ("junit artifact: <id>"), so under
// WithMaxRuns a run's notes naming an artifact keep it past ArtifactTTL
// for as long as the run is kept; another project's artifact, or a word
// that names none, holds nothing.
func TestNotesNameArtifact(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newIngestFixture(t, projectopstest.WithMaxRuns(1), projectopstest.WithClock(clk.Now))
	a, b := f.upload(t, "<testsuites/>"), f.upload(t, "<testsuites/>")
	other := must[string](t)(f.srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.srv.Default().OrganizationID, Name: "Other"}))
	elsewhere := ingestFixture{srv: f.srv, tg: f.tg, key: f.key, base: "/projects/" + other + "/eval-ingest"}
	o := elsewhere.upload(t, "<testsuites/>")
	res := `{"caseTitle":"c","passed":true}`
	f.tg.call(t, "POST", f.base+"/report", f.key,
		`{"suiteName":"s","externalRunId":"r1","notes":"ci run\njunit artifact: `+a+`; stg_nope; other: `+o+`","results":[`+res+`]}`).decode(t, &struct{}{})
	clk.Advance(projectopstest.ArtifactTTL)
	if _, _, ok := f.srv.Artifact(a); !ok {
		t.Error("an artifact a stored run's notes name lapsed")
	}
	if _, _, ok := f.srv.Artifact(b); ok {
		t.Error("an artifact nothing names outlived ArtifactTTL")
	}
	if _, _, ok := f.srv.Artifact(o); ok {
		t.Error("another project's artifact, named in a run's notes, outlived ArtifactTTL")
	}
	f.tg.call(t, "POST", f.base+"/report", f.key, `{"suiteName":"s","externalRunId":"r2","results":[`+res+`]}`).decode(t, &struct{}{})
	if _, _, ok := f.srv.Artifact(a); ok {
		t.Error("an artifact is kept after the run whose notes named it was dropped")
	}
}

// TestReusedRunKeepsItsFirstNotes: a report re-sent with the same
// externalRunId (projectops report --upload re-run: the run is reused)
// leaves the run's notes as it was created with, so the run keeps the file
// its first report named, and the file the re-run uploaded, named by no
// stored run, lapses after ArtifactTTL as any unnamed artifact does.
func TestReusedRunKeepsItsFirstNotes(t *testing.T) {
	t.Parallel()
	clk := newFakeClock()
	f := newIngestFixture(t, projectopstest.WithMaxRuns(5), projectopstest.WithClock(clk.Now))
	res := `{"caseTitle":"c","passed":true}`
	first := f.upload(t, "<testsuites/>")
	f.tg.call(t, "POST", f.base+"/report", f.key,
		`{"suiteName":"s","externalRunId":"r1","notes":"junit artifact: `+first+`","results":[`+res+`]}`).decode(t, &struct{}{})
	again := f.upload(t, "<testsuites/>")
	f.tg.call(t, "POST", f.base+"/report", f.key,
		`{"suiteName":"s","externalRunId":"r1","notes":"junit artifact: `+again+`","results":[`+res+`]}`).decode(t, &struct{}{})
	runs := f.srv.IngestedRuns(f.srv.Default().ProjectID)
	if len(runs) != 1 || runs[0].Params.Notes != "junit artifact: "+first {
		t.Fatalf("runs = %+v, want one run whose notes name %s", runs, first)
	}
	clk.Advance(projectopstest.ArtifactTTL)
	if _, _, ok := f.srv.Artifact(first); !ok {
		t.Error("the file the reused run's notes name lapsed while the run is kept")
	}
	if _, _, ok := f.srv.Artifact(again); ok {
		t.Error("the re-run's upload, named by no stored run, outlived ArtifactTTL")
	}
}

package ingest_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"

	gocmp "github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

func results(prefix string, n, failEvery int) []ingest.Result {
	out := make([]ingest.Result, n)
	for i := range out {
		out[i] = ingest.Result{CaseTitle: prefix + strconv.Itoa(i), Passed: failEvery == 0 || (i+1)%failEvery != 0,
			ExternalIterationID: prefix + "-" + strconv.Itoa(i), DurationMs: 1.5}
	}
	return out
}

func TestReportOneShot(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	p := ingest.ReportParams{RunParams: ingest.RunParams{SuiteName: "unit", ExternalRunID: "ext-1",
		PassCriteria: &ingest.PassCriteria{MinimumPassRate: 75}, Framework: "go"}, Results: results("c", 4, 4)}
	got, err := f.c.Ingest.Report(ctx, ingest.DefaultProject, p)
	if err != nil {
		t.Fatal(err)
	}
	want := &ingest.RunResult{OK: true, SuiteID: got.SuiteID, RunID: got.RunID, ProjectID: f.ws.ProjectID,
		Status: ingest.StatusCompleted, Result: ingest.ResultPassed,
		Summary: &ingest.Summary{Total: 4, Passed: 3, Failed: 1, PassRate: 0.75}}
	if diff := gocmp.Diff(want, got); diff != "" || got.RunID == "" || got.SuiteID == "" {
		t.Fatalf("report (-want +got):\n%s", diff)
	}
	// Reporting the same externalRunId again changes nothing.
	again, err := f.c.Ingest.Report(ctx, f.ws.ProjectID, p)
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(want, again); diff != "" {
		t.Errorf("repeated report (-want +got):\n%s", diff)
	}
	runs := f.srv.IngestedRuns(f.ws.ProjectID)
	if len(runs) != 1 || runs[0].Source != "sdk" || runs[0].SuiteName != "unit" || runs[0].ExternalRunID != "ext-1" ||
		runs[0].Params.Framework != "go" || runs[0].CompletedAt.IsZero() {
		t.Fatalf("runs = %+v", runs)
	}
	iters, _ := f.srv.IngestedIterations(got.RunID)
	if len(iters) != 4 || iters[3].Result != ingest.ResultFailed || iters[0].Input.CaseTitle != "c0" || iters[0].IterationNumber != 1 {
		t.Errorf("iterations = %+v", iters)
	}
}

func TestChunkedFlow(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	rp := ingest.RunParams{SuiteName: "chunked", ExternalRunID: "ext-2"}
	st, err := f.c.Ingest.StartRun(ctx, f.ws.ProjectID, rp)
	if err != nil {
		t.Fatal(err)
	}
	if st.Reused || st.Status != ingest.StatusRunning || st.Result != ingest.ResultPending {
		t.Fatalf("start = %+v", st)
	}
	rs := results("r", 5, 0)
	a, err := f.c.Ingest.AppendIterations(ctx, f.ws.ProjectID, ingest.AppendParams{RunID: st.RunID, Results: rs[:3]})
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(&ingest.AppendResult{OK: true, Inserted: 3, Total: 3}, a); diff != "" {
		t.Errorf("append (-want +got):\n%s", diff)
	}
	// A re-sent, overlapping batch only adds the new rows.
	a, err = f.c.Ingest.AppendIterations(ctx, f.ws.ProjectID, ingest.AppendParams{RunID: st.RunID, Results: rs[1:]})
	if err != nil {
		t.Fatal(err)
	}
	if diff := gocmp.Diff(&ingest.AppendResult{OK: true, Inserted: 2, Skipped: 2, Total: 5}, a); diff != "" {
		t.Errorf("overlapping append (-want +got):\n%s", diff)
	}
	// Starting the same external id again reuses the running run.
	re, err := f.c.Ingest.StartRun(ctx, f.ws.ProjectID, rp)
	if err != nil {
		t.Fatal(err)
	}
	if !re.Reused || re.RunID != st.RunID || re.Status != ingest.StatusRunning || re.Summary.Total != 5 {
		t.Errorf("restart = %+v", re)
	}
	fin, err := f.c.Ingest.FinalizeRun(ctx, f.ws.ProjectID, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: "ext-2"})
	if err != nil {
		t.Fatal(err)
	}
	if fin.Status != ingest.StatusCompleted || fin.Result != ingest.ResultPassed || fin.Summary.Total != 5 {
		t.Errorf("finalize = %+v", fin)
	}
	f.clock.Advance(1)
	fin2, err := f.c.Ingest.FinalizeRun(ctx, f.ws.ProjectID, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: "ext-2"})
	if err != nil || gocmp.Diff(fin, fin2) != "" {
		t.Errorf("second finalize = %+v, %v", fin2, err)
	}
	if r := f.srv.IngestedRuns("")[0]; !r.CompletedAt.Equal(t0) {
		t.Errorf("completedAt moved on the second finalize: %v", r.CompletedAt)
	}
	// A finalized run takes no more rows, and start reports it completed.
	_, err = f.c.Ingest.AppendIterations(ctx, f.ws.ProjectID, ingest.AppendParams{RunID: st.RunID, Results: results("x", 1, 0)})
	wantCode(t, err, projectops.CodeConflict, "")
	re, err = f.c.Ingest.StartRun(ctx, f.ws.ProjectID, rp)
	if err != nil || !re.Reused || re.Status != ingest.StatusCompleted || re.Result != ingest.ResultPassed {
		t.Errorf("start after finalize = %+v, %v", re, err)
	}
}

func TestFinalizeRules(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	for _, tt := range []struct {
		name         string
		min          *ingest.PassCriteria
		expected     int
		n, failEvery int
		status, res  string
	}{
		{"all pass default criteria", nil, 0, 4, 0, ingest.StatusCompleted, ingest.ResultPassed},
		{"one failure fails the default 100%", nil, 0, 4, 4, ingest.StatusCompleted, ingest.ResultFailed},
		{"75% meets 75", &ingest.PassCriteria{MinimumPassRate: 75}, 0, 4, 4, ingest.StatusCompleted, ingest.ResultPassed},
		{"50% misses 75", &ingest.PassCriteria{MinimumPassRate: 75}, 0, 4, 2, ingest.StatusCompleted, ingest.ResultFailed},
		{"empty run fails", nil, 0, 0, 0, ingest.StatusFailed, ingest.ResultFailed},
		{"fewer than expected fails", nil, 5, 4, 0, ingest.StatusFailed, ingest.ResultFailed},
	} {
		st, err := f.c.Ingest.StartRun(ctx, f.ws.ProjectID, ingest.RunParams{SuiteName: "s", ExternalRunID: tt.name,
			PassCriteria: tt.min, ExpectedIterations: tt.expected})
		if err != nil {
			t.Fatal(err)
		}
		if tt.n > 0 {
			if _, err := f.c.Ingest.AppendIterations(ctx, f.ws.ProjectID, ingest.AppendParams{RunID: st.RunID,
				Results: results("c", tt.n, tt.failEvery)}); err != nil {
				t.Fatal(err)
			}
		}
		fin, err := f.c.Ingest.FinalizeRun(ctx, f.ws.ProjectID, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: tt.name})
		if err != nil {
			t.Fatal(err)
		}
		if fin.Status != tt.status || fin.Result != tt.res {
			t.Errorf("%s: %s/%s, want %s/%s", tt.name, fin.Status, fin.Result, tt.status, tt.res)
		}
	}
}

func TestIngestValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	p := f.ws.ProjectID
	st, err := f.c.Ingest.StartRun(ctx, p, ingest.RunParams{SuiteName: "s", ExternalRunID: "v"})
	if err != nil {
		t.Fatal(err)
	}
	ok := ingest.RunParams{SuiteName: "s", ExternalRunID: "v2"}
	big := strings.Repeat("x", ingest.MaxBodyBytes)
	for _, tt := range []struct {
		name  string
		call  func() error
		code  projectops.Code
		field string
	}{
		{"suiteName", func() error { _, err := f.c.Ingest.StartRun(ctx, p, ingest.RunParams{ExternalRunID: "x"}); return err }, projectops.CodeValidation, "suiteName"},
		{"externalRunId", func() error { _, err := f.c.Ingest.StartRun(ctx, p, ingest.RunParams{SuiteName: "s"}); return err }, projectops.CodeValidation, "externalRunId"},
		{"minimumPassRate", func() error {
			q := ok
			q.PassCriteria = &ingest.PassCriteria{MinimumPassRate: 101}
			_, err := f.c.Ingest.StartRun(ctx, p, q)
			return err
		}, projectops.CodeValidation, "passCriteria.minimumPassRate"},
		{"caseTitle", func() error {
			_, err := f.c.Ingest.Report(ctx, p, ingest.ReportParams{RunParams: ok, Results: []ingest.Result{{CaseTitle: "a"}, {Passed: true}}})
			return err
		}, projectops.CodeValidation, "results[1].caseTitle"},
		{"caseId mismatch", func() error {
			_, err := f.c.Ingest.AppendIterations(ctx, p, ingest.AppendParams{RunID: st.RunID,
				Results: []ingest.Result{{CaseTitle: "a", CaseID: "1", ExternalCaseID: "2"}}})
			return err
		}, projectops.CodeValidation, "results[0].caseId"},
		{"empty results", func() error {
			_, err := f.c.Ingest.AppendIterations(ctx, p, ingest.AppendParams{RunID: st.RunID})
			return err
		}, projectops.CodeValidation, "results"},
		{"runId", func() error {
			_, err := f.c.Ingest.FinalizeRun(ctx, p, ingest.FinalizeParams{ExternalRunID: "v"})
			return err
		}, projectops.CodeValidation, "runId"},
		{"externalRunId mismatch", func() error {
			_, err := f.c.Ingest.FinalizeRun(ctx, p, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: "other"})
			return err
		}, projectops.CodeValidation, "externalRunId"},
		{"unknown run", func() error {
			_, err := f.c.Ingest.AppendIterations(ctx, p, ingest.AppendParams{RunID: "run_999", Results: results("a", 1, 0)})
			return err
		}, projectops.CodeNotFound, ""},
		{"unknown project", func() error { _, err := f.c.Ingest.StartRun(ctx, "prj_nope", ok); return err }, projectops.CodeNotFound, ""},
		{"body over the API's 1 MiB", func() error {
			_, err := f.c.Ingest.AppendIterations(ctx, p, ingest.AppendParams{RunID: st.RunID,
				Results: []ingest.Result{{CaseTitle: "a", Error: big}}})
			return err
		}, projectops.CodeValidation, ""},
		{"body over the ingest route's 6 MiB", func() error {
			_, err := f.c.Ingest.AppendIterations(ctx, p, ingest.AppendParams{RunID: st.RunID,
				Results: []ingest.Result{{CaseTitle: "a", Error: strings.Repeat(big, 6)}}})
			return err
		}, projectops.CodeValidation, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantCode(t, tt.call(), tt.code, tt.field)
		})
	}
	// Not one of those was retried: 400 and 404 are final.
	if got := len(routeStatuses(f.srv, routeAppend)); got != 5 {
		t.Errorf("append attempts = %d, want 5 (one per failing call, none retried)", got)
	}
	// The oversized body's error says what happened.
	_, err = f.c.Ingest.AppendIterations(ctx, p, ingest.AppendParams{RunID: st.RunID, Results: []ingest.Result{{CaseTitle: "a", Error: big}}})
	if e := wantCode(t, err, projectops.CodeValidation, ""); e.Message != "Request body exceeds 1MB limit" {
		t.Errorf("message = %q", e.Message)
	}
	// Nothing of a refused body was stored.
	if run, err := f.c.Ingest.FinalizeRun(ctx, p, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: "v"}); err != nil || run.Summary == nil || run.Summary.Total != 0 {
		t.Errorf("after refusals: %+v, %v", run, err)
	}
}

// Another project's run reads as 404, and a project guest cannot ingest.
func TestIngestAccess(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	other, err := f.srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.ws.OrganizationID, Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.c.Ingest.StartRun(ctx, other, ingest.RunParams{SuiteName: "s", ExternalRunID: "a"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.c.Ingest.AppendIterations(ctx, f.ws.ProjectID, ingest.AppendParams{RunID: st.RunID, Results: results("a", 1, 0)})
	wantCode(t, err, projectops.CodeNotFound, "")

	uid, err := f.srv.AddUser(projectopstest.UserSpec{OrganizationID: f.ws.OrganizationID, Role: projectopstest.RoleMember})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.srv.AddMember(f.ws.ProjectID, uid, projectopstest.RoleGuest); err != nil {
		t.Fatal(err)
	}
	key, _, err := f.srv.AddAPIKey(uid, "guest")
	if err != nil {
		t.Fatal(err)
	}
	guest := f.client(t, option.WithAPIKey(key))
	_, err = guest.Ingest.Report(ctx, f.ws.ProjectID, ingest.ReportParams{RunParams: ingest.RunParams{SuiteName: "s", ExternalRunID: "g"},
		Results: results("a", 1, 0)})
	wantCode(t, err, projectops.CodeForbidden, "")
	// The guest's default project is the organization's first project.
	_, err = guest.Ingest.StartRun(ctx, ingest.DefaultProject, ingest.RunParams{SuiteName: "s", ExternalRunID: "g"})
	wantCode(t, err, projectops.CodeForbidden, "")
}

package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// eval suites lists the project's suites with their latest run: none is
// a header in text and [] in JSON; --limit shows the first n.
func TestEvalSuitesListsSuites(t *testing.T) {
	srv, downID := evalServer(t)
	code, out, errOut := evalCLI(t, "suites")
	if code != 0 || out != "ID  NAME  RUNS  LATEST RUN  STATUS  PASSED  FAILED  PASS RATE\n" {
		t.Errorf("suites, none: exit %d %q %s", code, out, errOut)
	}
	if code, out, errOut = evalCLI(t, "suites", "--json"); code != 0 || out != "[]\n" {
		t.Errorf("suites --json, none: exit %d %q %s", code, out, errOut)
	}

	idle, err := srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: srv.Default().ProjectID, Name: "idle", ServerIDs: []string{downID}})
	if err != nil {
		t.Fatal(err)
	}
	rc := startRun(t, echoTest(os.Getenv("EVAL_TEST_DEMO_SERVER"), ""))
	if code, out, errOut = evalCLI(t, "status", rc.RunID, "--wait", "--interval", "1ms"); code != 0 {
		t.Fatalf("status --wait: exit %d\n%s\n%s", code, out, errOut)
	}
	code, out, errOut = evalCLI(t, "suites")
	rows := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n")[1:] {
		f := strings.Fields(line)
		rows[f[0]] = f[1:]
	}
	want := map[string][]string{
		idle:       {"idle", "0", "-", "-", "-", "-", "-"},
		rc.SuiteID: {"gate", "1", rc.RunID, "completed", "1", "0", "100%"},
	}
	if code != 0 || len(rows) != 2 || strings.Join(rows[idle], " ") != strings.Join(want[idle], " ") ||
		strings.Join(rows[rc.SuiteID], " ") != strings.Join(want[rc.SuiteID], " ") {
		t.Errorf("suites: exit %d, rows %v, want %v\n%s", code, rows, want, errOut)
	}

	code, out, errOut = evalCLI(t, "suites", "--json")
	var suites []evals.Suite
	if code != 0 || json.Unmarshal([]byte(out), &suites) != nil || len(suites) != 2 {
		t.Fatalf("suites --json: exit %d\n%s\n%s", code, out, errOut)
	}
	for _, s := range suites {
		if s.ID == rc.SuiteID && (s.LatestRun == nil || s.LatestRun.ID != rc.RunID || s.Totals.Runs != 1) {
			t.Errorf("suites --json: %s = %+v", s.ID, s)
		}
	}
	code, out, errOut = evalCLI(t, "suites", "--json", "--limit", "1")
	if code != 0 || json.Unmarshal([]byte(out), &suites) != nil || len(suites) != 1 {
		t.Errorf("suites --json --limit 1: exit %d\n%s\n%s", code, out, errOut)
	}
}

// eval runs lists a suite's runs newest first; --limit n shows the n most
// recent; a suite without runs is a header, or []; a suite of another
// project is not found (the API's 404, exit 2).
func TestEvalRunsListsSuiteRuns(t *testing.T) {
	srv, downID := evalServer(t)
	ws := srv.Default()
	first := startRun(t, echoTest(os.Getenv("EVAL_TEST_DEMO_SERVER"), "first"))
	code, out, errOut := evalCLI(t, "run", "--suite", first.SuiteID, "--server", downID, "--wait", "--interval", "1ms")
	if code != 1 {
		t.Fatalf("second run: exit %d\n%s\n%s", code, out, errOut)
	}
	if code, out, errOut = evalCLI(t, "status", first.RunID, "--wait", "--interval", "1ms"); code != 0 {
		t.Fatalf("first run: exit %d\n%s\n%s", code, out, errOut)
	}

	code, out, errOut = evalCLI(t, "runs", first.SuiteID)
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if code != 0 || len(lines) != 3 || strings.Join(strings.Fields(lines[0]), " ") != "ID # STATUS RESULT PASSED FAILED CREATED SOURCE NOTES" {
		t.Fatalf("runs: exit %d\n%s\n%s", code, out, errOut)
	}
	second, firstRow := strings.Fields(lines[1]), strings.Fields(lines[2])
	if second[1] != "2" || second[2] != "failed" || second[3] != "failed" || second[4] != "0" || second[5] != "1" || second[7] != "api" || len(second) != 8 ||
		firstRow[0] != first.RunID || firstRow[1] != "1" || firstRow[3] != "passed" || firstRow[8] != "first" {
		t.Errorf("runs, newest first:\n%s", out)
	}

	code, out, errOut = evalCLI(t, "runs", first.SuiteID, "--json", "--limit", "1")
	var runs []evals.Run
	if code != 0 || json.Unmarshal([]byte(out), &runs) != nil || len(runs) != 1 || runs[0].RunNumber != 2 {
		t.Errorf("runs --json --limit 1: exit %d\n%s\n%s", code, out, errOut)
	}

	idle, err := srv.AddEvalSuite(projectopstest.EvalSuiteSpec{ProjectID: ws.ProjectID, Name: "idle", ServerIDs: []string{downID}})
	if err != nil {
		t.Fatal(err)
	}
	if code, out, errOut = evalCLI(t, "runs", idle, "--json"); code != 0 || out != "[]\n" {
		t.Errorf("runs --json of a suite without runs: exit %d %q %s", code, out, errOut)
	}
	if code, out, errOut = evalCLI(t, "runs", idle); code != 0 || strings.Count(out, "\n") != 1 || !strings.HasPrefix(out, "ID") {
		t.Errorf("runs of a suite without runs: exit %d %q %s", code, out, errOut)
	}

	other, err := srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "other",
		Members: []projectopstest.MemberSpec{{UserID: ws.UserID, Role: projectopstest.RoleAdmin}}})
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut = evalCLI(t, "runs", "--project", other, first.SuiteID)
	if code != 2 || out != "" || !strings.Contains(errOut, "GET /projects/"+other+"/eval-suites/"+first.SuiteID+"/runs: 404 NOT_FOUND") {
		t.Errorf("runs of another project's suite: exit %d\n%s\n%s", code, out, errOut)
	}
}

// A suite's name and a run's notes are anyone's text: the API key in them
// is never printed, in text or JSON.
func TestEvalSuitesAndRunsRedact(t *testing.T) {
	_, downID := evalServer(t)
	key := os.Getenv("PROJECTOPS_API_KEY")
	p := echoTest(downID, "notes "+key)
	p.SuiteName = "key " + key
	rc := startRun(t, p)
	for _, args := range [][]string{{"suites"}, {"suites", "--json"}, {"runs", rc.SuiteID}, {"runs", rc.SuiteID, "--json"}} {
		code, out, errOut := evalCLI(t, args...)
		if code != 0 || !strings.Contains(out, "[REDACTED]") || strings.Contains(out, strings.TrimPrefix(key, "sk_")) {
			t.Errorf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
	}
}

// Bad usage exits 2 before a client is built: with no API key set, the
// usage is what is said.
func TestEvalSuitesAndRunsUsage(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"suites", "evs_1"}, `unexpected argument "evs_1"`},
		{[]string{"suites", "--limit", "-1"}, "--limit -1: must be 0 (all) or more"},
		{[]string{"suites", "--limit", "x"}, `invalid argument "x" for "--limit"`},
		{[]string{"runs"}, "want SUITE_ID, got 0 argument(s)"},
		{[]string{"runs", "evs_1", "evs_2"}, "want SUITE_ID, got 2 argument(s)"},
		{[]string{"runs", "evs_1", "--limit", "101"}, "--limit 101: must be 0 (the service's default, 25) to 100"},
		{[]string{"runs", "evs_1", "--limit", "-1"}, "--limit -1: must be 0"},
	} {
		code, out, errOut := evalCLI(t, tc.args...)
		if code != 2 || out != "" || !strings.Contains(errOut, tc.want) || strings.Contains(errOut, "PROJECTOPS_API_KEY") {
			t.Errorf("%v: exit %d\n%s\n%s", tc.args, code, out, errOut)
		}
	}
}

// Both listings follow a nextCursor (the routes send none today; a
// service that pages them loses no item) and stop at --limit.
func TestEvalSuitesAndRunsFollowPages(t *testing.T) {
	pages := map[string]string{
		"/api/v1/projects/prj_1/eval-suites":            `{"items":[{"id":"evs_1","name":"one","totals":{"passed":0,"failed":0,"runs":0},"passRateTrend":[]}],"nextCursor":"c2"}`,
		"/api/v1/projects/prj_1/eval-suites?c2":         `{"items":[{"id":"evs_2","name":"two","totals":{"passed":0,"failed":0,"runs":0},"passRateTrend":[]}]}`,
		"/api/v1/projects/prj_1/eval-suites/evs_1/runs": `{"items":[{"id":"run_3","suiteId":"evs_1","status":"running","source":"ui","createdAt":3}],"nextCursor":"c2"}`,
		"/api/v1/projects/prj_1/eval-suites/evs_1/runs?c2": `{"items":[{"id":"run_2","suiteId":"evs_1","status":"completed","source":"ui","createdAt":2},` +
			`{"id":"run_1","suiteId":"evs_1","status":"completed","source":"ui","createdAt":1}]}`,
	}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		path := r.URL.Path
		if c := r.URL.Query().Get("cursor"); c != "" {
			path += "?" + c
		}
		page, ok := pages[path]
		if !ok {
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"code":"VALIDATION_ERROR","message":"unexpected request"}`))
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(page))
	}))
	t.Cleanup(hs.Close)
	t.Setenv("PROJECTOPS_BASE_URL", hs.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", "sk_test")
	t.Setenv("PROJECTOPS_PROJECT", "prj_1")
	ids := func(args ...string) string {
		t.Helper()
		code, out, errOut := evalCLI(t, args...)
		var items []struct{ ID string }
		if code != 0 || json.Unmarshal([]byte(out), &items) != nil {
			t.Fatalf("%v: exit %d\n%s\n%s", args, code, out, errOut)
		}
		var s []string
		for _, it := range items {
			s = append(s, it.ID)
		}
		return strings.Join(s, " ")
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"suites", "--json"}, "evs_1 evs_2"},
		{[]string{"suites", "--json", "--limit", "1"}, "evs_1"},
		{[]string{"runs", "evs_1", "--json"}, "run_3 run_2 run_1"},
		{[]string{"runs", "evs_1", "--json", "--limit", "2"}, "run_3 run_2"},
	} {
		if got := ids(tc.args...); got != tc.want {
			t.Errorf("%v: %s, want %s", tc.args, got, tc.want)
		}
	}
}

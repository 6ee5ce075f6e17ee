package projectopstest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// rtFunc adapts a function to http.RoundTripper.
type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// withBodyField adds a top-level field to every JSON request body.
func withBodyField(next http.RoundTripper, name, value string) http.RoundTripper {
	return rtFunc(func(r *http.Request) (*http.Response, error) {
		if r.Body == nil || r.Method != http.MethodPost {
			return next.RoundTrip(r)
		}
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, err
		}
		var m map[string]any
		if json.Unmarshal(b, &m) == nil {
			m[name] = value
			b, _ = json.Marshal(m)
		}
		r = r.Clone(r.Context())
		r.Body, r.ContentLength = io.NopCloser(bytes.NewReader(b)), int64(len(b))
		return next.RoundTrip(r)
	})
}

// TestIngestBodyProjectIDIgnoredSDK: a reporter that puts projectId in
// every ingest body (the service's own reporter may) works unchanged; the
// path decides the project, for a project id and for "default".
func TestIngestBodyProjectIDIgnoredSDK(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	other := must[string](t)(srv.AddProject(projectopstest.ProjectSpec{OrganizationID: ws.OrganizationID, Name: "Other"}))
	c := must[*projectops.Client](t)(srv.NewClient(option.WithTransport(withBodyField(srv.Transport(), "projectId", other))))
	for _, path := range []string{ws.ProjectID, ingest.DefaultProject} {
		res, err := c.Ingest.Report(t.Context(), path, ingest.ReportParams{
			RunParams: ingest.RunParams{SuiteName: "s", ExternalRunID: "ext-" + path},
			Results:   []ingest.Result{{CaseTitle: "a", Passed: true}}})
		if err != nil {
			t.Fatalf("Report(%s): %v", path, err)
		}
		if res.ProjectID != ws.ProjectID {
			t.Errorf("Report(%s) stored in %q, want the path's project %q", path, res.ProjectID, ws.ProjectID)
		}
	}
	if n := len(srv.IngestedRuns(other)); n != 0 {
		t.Errorf("%d runs stored in the body's project", n)
	}
}

// TestIngestBodyProjectIDIgnoredRaw: the same over raw HTTP for every
// ingest route; other unknown fields are still refused.
func TestIngestBodyProjectIDIgnoredRaw(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/eval-ingest/"
	post := func(route, body string) map[string]any {
		t.Helper()
		var out map[string]any
		tg.call(t, "POST", base+route, ws.APIKey, body).decode(t, &out)
		return out
	}
	rep := post("report", `{"projectId":"prj_nope","suiteName":"s","externalRunId":"e1","results":[{"caseTitle":"a","passed":true}]}`)
	if rep["projectId"] != ws.ProjectID || rep["ok"] != true {
		t.Errorf("report: %v", rep)
	}
	start := post("runs/start", `{"suiteName":"s","externalRunId":"e2","projectId":null}`)
	runID, _ := start["runId"].(string)
	if add := post("runs/iterations", `{"projectId":7,"runId":"`+runID+`","results":[{"caseTitle":"a","passed":false}]}`); add["inserted"] != 1.0 {
		t.Errorf("runs/iterations: %v", add)
	}
	if fin := post("runs/finalize", `{"projectId":"x","runId":"`+runID+`","externalRunId":"e2"}`); fin["status"] != "completed" || fin["projectId"] != ws.ProjectID {
		t.Errorf("runs/finalize: %v", fin)
	}
	if up := post("artifacts/upload-url", `{"projectId":"x"}`); !strings.Contains(up["uploadUrl"].(string), "/eval-ingest-uploads/") {
		t.Errorf("upload-url: %v", up)
	}
	tg.call(t, "POST", base+"report", ws.APIKey, `{"projectId":"x","bogus":1,"suiteName":"s","externalRunId":"e3","results":[]}`).wantField(t, "bogus")
}

// TestIngestIDLimitsCountCharacters: externalRunId and externalIterationId
// take 256 characters (JSON Schema's maxLength), whatever their bytes; the
// 257th is refused.
func TestIngestIDLimitsCountCharacters(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/eval-ingest/"
	id := strings.Repeat("é", 256)
	body := `{"suiteName":"s","externalRunId":"` + id + `","results":[{"caseTitle":"a","passed":true,"externalIterationId":"` + id + `"}]}`
	if r := tg.call(t, "POST", base+"report", ws.APIKey, body); r.status != 200 {
		t.Errorf("256-character ids: %d %s", r.status, r.body)
	}
	tg.call(t, "POST", base+"report", ws.APIKey, `{"suiteName":"s","externalRunId":"`+id+`é","results":[]}`).wantField(t, "externalRunId")
}

package projectopstest_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/hostconfig"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// fullResult uses every field reference-notes section 3.8 documents for a
// result, as the service's own reporter sends them (metadata as its
// 2026-08-05 reporter does, with nested predicate verdicts and scores).
const fullResult = `{"caseTitle":"books: search","query":"find a book","passed":false,"durationMs":1234.5,
 "provider":"anthropic","model":"anthropic/claude-haiku-4.5",
 "expectedToolCalls":[{"toolName":"search","arguments":{"q":"dune"}}],"actualToolCalls":[{"toolName":"search"}],
 "tokens":{"input":10,"output":20,"total":30},"error":"wrong tool","errorDetails":"stack trace",
 "trace":{"messages":[{"role":"user","content":"find a book"}],"spans":[{"id":"s1","name":"llm","category":"llm","startMs":0,"endMs":5}]},
 "externalIterationId":"it-1","externalCaseId":"case-1","caseId":"case-1","metadata":{"suite":"books","attempt":1,"flaky":false,
   "predicates":[{"predicate":{"type":"toolCalled","toolName":"search"},"passed":true,"reason":"search was called"}],"scores":[{"id":"s1","score":1}]},
 "isNegativeTest":false,"expectedOutput":"Dune","advancedConfig":{"system":"be brief","temperature":0.2},
 "widgetSnapshots":[{"toolCallId":"tc1","toolName":"search","protocol":"mcp-apps","serverId":"srv_1","resourceUri":"ui://books",
   "toolMetadata":{},"widgetCsp":null,"widgetPermissions":null,"widgetPermissive":false,"prefersBorder":true,"widgetHtmlBlobId":"BLOB"}],
 "matchOptions":{"toolCallOrder":"superset","maxExtraToolCalls":null,"allowExtraToolCalls":true,"argumentMatching":"partial"}}`

// Every documented run and result field is accepted, stored as sent and
// read back: whole through the test hook, and through the eval routes
// where they expose it. Widget HTML goes through an upload URL first, as
// the service's reporter sends it.
func TestIngestKeepsEveryDocumentedField(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithContractCheck(t))
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/eval-ingest"
	var up struct {
		UploadURL string `json:"uploadUrl"`
	}
	tg.call(t, "POST", base+"/artifacts/upload-url", ws.APIKey, `{}`).decode(t, &up)
	var stored struct {
		StorageID string `json:"storageId"`
	}
	uploadPath := strings.TrimPrefix(up.UploadURL, srv.URL())
	tg.call(t, "POST", uploadPath, "", "<html>widget</html>").decode(t, &stored)
	result := strings.Replace(fullResult, "BLOB", stored.StorageID, 1)

	const hostConfig = `{"temperature":0.7,"connectionDefaults":{"headers":{},"requestTimeout":10000},"hostContext":{},"clientCapabilities":{}}`
	body := `{"suiteName":"books","suiteDescription":"d","serverNames":["books"],"notes":"n","passCriteria":{"minimumPassRate":50},
	 "externalRunId":"ext-full","framework":"go","ci":{"provider":"github","pipelineId":"1","jobId":"2","runUrl":"https://ci.example/1","branch":"main","commitSha":"abc"},
	 "expectedIterations":1,"tags":["nightly"],"evaluationConfigHash":"cfg-1","hostConfigHash":"HASH",
	 "hostConfig":` + hostConfig + `,
	 "serverReplayConfigs":[{"serverId":"srv_1","url":"https://mcp.example/mcp","preferSSE":false,"accessToken":"at","refreshToken":"rt","clientId":"ci","clientSecret":"cs"}],
	 "results":[` + result + `]}`
	// The hash is the service's content address of the config; any other
	// is refused.
	var cfg map[string]any
	_ = json.Unmarshal([]byte(hostConfig), &cfg)
	canon, err := hostconfig.Canonicalize(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if got := tg.call(t, "POST", base+"/report", ws.APIKey, strings.Replace(body, "HASH", "0123", 1)); got.status != http.StatusBadRequest {
		t.Fatalf("a wrong hostConfigHash: %d %s", got.status, got.body)
	}
	body = strings.Replace(body, "HASH", hostconfig.ID(canon), 1)
	var rep struct {
		RunID string `json:"runId"`
	}
	tg.call(t, "POST", base+"/report", ws.APIKey, body).decode(t, &rep)

	its, ok := srv.IngestedIterations(rep.RunID)
	if !ok || len(its) != 1 {
		t.Fatalf("stored iterations: %v %d", ok, len(its))
	}
	var want, got map[string]any
	if err := json.Unmarshal([]byte(result), &want); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(its[0].Raw, &got); err != nil {
		t.Fatal(err)
	}
	for k, v := range want {
		a, _ := json.Marshal(v)
		b, _ := json.Marshal(got[k])
		if string(a) != string(b) {
			t.Errorf("stored %s = %s, sent %s", k, b, a)
		}
	}

	// The eval routes serve what they expose of the row.
	var page struct {
		Items []map[string]any `json:"items"`
	}
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/eval-runs/"+rep.RunID+"/iterations", ws.APIKey, nil).decode(t, &page)
	if len(page.Items) != 1 {
		t.Fatalf("iterations: %+v", page.Items)
	}
	it := page.Items[0]
	if it["title"] != "books: search" || it["model"] != "anthropic/claude-haiku-4.5" || it["error"] != "wrong tool" ||
		it["durationMs"] != 1234.5 || it["result"] != "failed" {
		t.Errorf("iteration view: %v", it)
	}
	var trace map[string]any
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/eval-runs/"+rep.RunID+"/iterations/"+it["id"].(string)+"/trace", ws.APIKey, nil).decode(t, &trace)
	if spans, _ := trace["spans"].([]any); len(spans) != 1 {
		t.Errorf("trace: %v", trace)
	}
}

// The rules the contract cannot carry, on the wire.
func TestIngestRules(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithContractCheck(t))
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/eval-ingest"
	start := func(ext, hash string) result {
		return tg.call(t, "POST", base+"/runs/start", ws.APIKey,
			`{"suiteName":"s","externalRunId":"`+ext+`","evaluationConfigHash":"`+hash+`"}`)
	}
	var first, again struct {
		RunID  string `json:"runId"`
		Reused bool   `json:"reused"`
	}
	start("ext-1", "h1").decode(t, &first)
	start("ext-1", "h1").decode(t, &again)
	if !again.Reused || again.RunID != first.RunID {
		t.Errorf("same hash: %+v, want the run reused", again)
	}
	// A reused externalRunId must describe the same evaluation.
	b := start("ext-1", "h2").wantError(t, shared.CodeConflict)
	if b.Details["field"] != "evaluationConfigHash" {
		t.Errorf("conflict details: %v", b.Details)
	}

	// hostConfig goes through the host config v2 validator.
	tg.call(t, "POST", base+"/runs/start", ws.APIKey,
		`{"suiteName":"s","externalRunId":"ext-2","hostConfig":{"modelId":"m"}}`).wantField(t, "hostConfig.temperature")

	// A widget snapshot's blob must be an artifact uploaded to the project.
	res := strings.Replace(fullResult, "BLOB", "stg_nope", 1)
	tg.call(t, "POST", base+"/runs/iterations", ws.APIKey, `{"runId":"`+first.RunID+`","results":[`+res+`]}`).
		wantField(t, "results[0].widgetSnapshots[0].widgetHtmlBlobId")

	// Types come from the notes, not from the SDK: errorDetails is a
	// string. Metadata is an object (its values any JSON: see
	// TestIngestAcceptsNestedMetadata).
	for field, row := range map[string]string{
		"results[0].errorDetails": `{"caseTitle":"c","passed":false,"errorDetails":{"stack":"x"}}`,
		"results[0].metadata":     `{"caseTitle":"c","passed":true,"metadata":["nested"]}`,
	} {
		tg.call(t, "POST", base+"/runs/iterations", ws.APIKey, `{"runId":"`+first.RunID+`","results":[`+row+`]}`).wantField(t, field)
	}
	if its, _ := srv.IngestedIterations(first.RunID); len(its) != 0 {
		t.Errorf("refused rows were stored: %d", len(its))
	}
}

// Metadata values may be any JSON: the service's reporter since 2026-08-05
// (sdk c47526c40) declares metadata an open record and sends predicate
// verdicts (an array of objects), scores and its evaluation config there.
// The 07-09 reference (3a1a53223) declared scalars only.
func TestIngestAcceptsNestedMetadata(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithContractCheck(t))
	ws := srv.Default()
	tg := inproc(srv)
	const metadata = `{"retryCount":0,"iterationNumber":1,` +
		`"predicates":[{"predicate":{"type":"toolCalled","toolName":"search"},"passed":true,"reason":"search was called"}],` +
		`"scores":[{"id":"s1","score":1}],"evaluationConfig":{"hash":"abc"}}`
	body := `{"suiteName":"predicates","externalRunId":"nested-meta","results":[{"caseTitle":"case","passed":true,"metadata":` + metadata + `}]}`
	var rep struct {
		RunID string `json:"runId"`
	}
	tg.call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/report", ws.APIKey, body).decode(t, &rep)
	its, _ := srv.IngestedIterations(rep.RunID)
	if len(its) != 1 {
		t.Fatalf("stored iterations: %d", len(its))
	}
	var row struct {
		Metadata json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(its[0].Raw, &row); err != nil {
		t.Fatal(err)
	}
	if string(row.Metadata) != metadata {
		t.Errorf("stored metadata = %s, sent %s", row.Metadata, metadata)
	}
}

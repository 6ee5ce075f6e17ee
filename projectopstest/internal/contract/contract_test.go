package contract

import (
	"errors"
	"strings"
	"testing"
)

func mustLoad(t testing.TB) *Contract {
	t.Helper()
	c, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func mustDecode(t testing.TB, s string) any {
	t.Helper()
	v, err := Decode([]byte(s))
	if err != nil {
		t.Fatalf("Decode(%s): %v", s, err)
	}
	return v
}

func TestRoutesCoverBothSources(t *testing.T) {
	c := mustLoad(t)
	// 07-09 documents 45 operations; the notes add the five ingest bodies.
	if got := len(c.Routes()); got != 45+5 {
		t.Errorf("routes = %d, want 50: %v", got, c.Routes())
	}
	for _, r := range []string{
		"GET /me", "POST /projects/{projectId}/hosts", "DELETE /projects/{projectId}/hosts/{hostId}",
		"POST /projects/{projectId}/eval-ingest/report", "POST /projects/{projectId}/eval-ingest/artifacts/upload-url",
	} {
		m, p, _ := strings.Cut(r, " ")
		if c.Route(m, p) == nil {
			t.Errorf("no route %s", r)
		}
	}
}

func TestCheckRequest(t *testing.T) {
	c := mustLoad(t)
	tests := []struct {
		name, method, path, body string
		field                    string // "" = accepted; "-" = refused without a field
	}{
		{"host from template", "POST", "/projects/{projectId}/hosts", `{"name":"c","template":"claude"}`, ""},
		{"host unknown field (08-22 closes it)", "POST", "/projects/{projectId}/hosts", `{"name":"c","template":"claude","colour":1}`, "colour"},
		{"host template: the route decides", "POST", "/projects/{projectId}/hosts", `{"name":"c","template":"goose"}`, ""},
		{"host bad enum", "POST", "/projects/{projectId}/hosts", `{"name":"c","template":"claude","theme":"sepia"}`, "theme"},
		{"host fields that go together: the route decides", "POST", "/projects/{projectId}/hosts", `{"name":"c"}`, ""},
		{"test case defaults from the suite", "POST", "/projects/{projectId}/eval-runs", `{"suiteName":"s","serverIds":["a"],"tests":[{"title":"t","steps":[{"id":"1","kind":"prompt","prompt":"hi"}]}]}`, ""},
		{"host name missing", "POST", "/projects/{projectId}/hosts", `{"template":"claude"}`, "name"},
		{"eval run idempotencyKey from 08-22", "POST", "/projects/{projectId}/eval-runs", `{"suiteId":"evs_1","idempotencyKey":"k"}`, ""},
		{"eval run unknown field", "POST", "/projects/{projectId}/eval-runs", `{"suiteId":"evs_1","bogus":true}`, "bogus"},
		{"suite create unknown field", "POST", "/projects/{projectId}/eval-suites", `{"name":"s","serverIds":["a"],"model":"m","tests":[],"x":1}`, "x"},
		{"diagnostics body is open", "POST", "/projects/{projectId}/servers/{serverId}/tools", `{"cursor":"c","extra":1}`, ""},
		{"cursor must be a string", "POST", "/projects/{projectId}/servers/{serverId}/tools", `{"cursor":5}`, "cursor"},
		{"tools/call needs toolName", "POST", "/projects/{projectId}/servers/{serverId}/tools/call", `{}`, "toolName"},
		{"host delete takes force only", "DELETE", "/projects/{projectId}/hosts/{hostId}", `{"force":true,"cascade":true}`, "cascade"},
		{"environment create is closed (as images are)", "POST", "/projects/{projectId}/computer-environments", `{"name":"n","dockerfile":"FROM a","sharing":"project"}`, "sharing"},
		{"environment update is closed", "PATCH", "/projects/{projectId}/computer-environments/{environmentId}", `{"contentHash":"x"}`, "contentHash"},
		{"bodyless op takes {}", "POST", "/projects/{projectId}/computer-environments/{environmentId}/build", `{}`, ""},
		{"bodyless op refuses a field", "POST", "/projects/{projectId}/tunnels/{serverId}/close", `{"force":true}`, "force"},
		{"tunnel name length: the route decides, after trimming", "POST", "/projects/{projectId}/tunnels", `{"name":"  ` + strings.Repeat("n", 128) + ` "}`, ""},
		{"tunnel name must be a string", "POST", "/projects/{projectId}/tunnels", `{"name":5}`, "name"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := c.Route(tt.method, tt.path)
			if r == nil {
				t.Fatalf("no route %s %s", tt.method, tt.path)
			}
			err := r.CheckRequest(mustDecode(t, tt.body))
			checkField(t, err, tt.field)
		})
	}
}

func checkField(t *testing.T, err error, field string) {
	t.Helper()
	if field == "" {
		if err != nil {
			t.Fatalf("refused: %v", err)
		}
		return
	}
	var v *Violation
	if !errors.As(err, &v) {
		t.Fatalf("err = %v, want a *Violation", err)
	}
	if field != "-" && v.Field != field {
		t.Errorf("field = %q (%s), want %q", v.Field, v.Message, field)
	}
}

const widget = `{"toolCallId":"t1","toolName":"show","protocol":"mcp-apps","serverId":"srv_1","resourceUri":"ui://w",
 "toolMetadata":{},"widgetCsp":null,"widgetPermissions":null,"widgetPermissive":false,"prefersBorder":true,"widgetHtmlBlobId":"blob_1"}`

func TestCheckIngest(t *testing.T) {
	c := mustLoad(t)
	report := c.Route("POST", "/projects/{projectId}/eval-ingest/report")
	tests := []struct{ name, body, field string }{
		{"every documented field", `{"suiteName":"s","externalRunId":"r","projectId":"ignored","serverNames":["a"],
		  "serverReplayConfigs":[{"serverId":"srv","url":"https://x","preferSSE":false,"accessToken":"a","refreshToken":"b","clientId":"c","clientSecret":"d"}],
		  "notes":"n","passCriteria":{"minimumPassRate":80},"framework":"go","ci":{"provider":"github","commitSha":"abc"},
		  "expectedIterations":1,"tags":["t"],"evaluationConfigHash":"h","hostConfig":{"version":2},"hostConfigHash":"hh",
		  "results":[{"caseTitle":"c","passed":true,"query":"q","durationMs":1.5,"provider":"p","model":"m",
		    "expectedToolCalls":[{"toolName":"x","arguments":{"a":1}}],"actualToolCalls":[{"toolName":"x"}],
		    "tokens":{"input":1,"output":2,"total":3},"error":"e","errorDetails":"d",
		    "trace":{"messages":[{"role":"user","content":"hi"}],"spans":[{"id":"s","name":"n","category":"llm","startMs":0,"endMs":1}]},
		    "externalIterationId":"i","externalCaseId":"k","caseId":"k","metadata":{"a":"b","n":1,"f":true},
		    "isNegativeTest":false,"expectedOutput":"o","advancedConfig":{"any":{"thing":1}},
		    "widgetSnapshots":[` + widget + `],"matchOptions":{"toolCallOrder":"superset","maxExtraToolCalls":null,"argumentMatching":"partial"}}]}`, ""},
		{"trace as a string", `{"suiteName":"s","externalRunId":"r","results":[{"caseTitle":"c","passed":false,"trace":"log"}]}`, ""},
		{"errorDetails is a string", `{"suiteName":"s","externalRunId":"r","results":[{"caseTitle":"c","passed":false,"errorDetails":{"a":1}}]}`, "results[0].errorDetails"},
		{"unknown result field", `{"suiteName":"s","externalRunId":"r","results":[{"caseTitle":"c","passed":true,"bogus":1}]}`, "results[0].bogus"},
		// The service's reporter (since 2026-08-05) nests predicate verdicts,
		// scores and its evaluation config in metadata.
		{"metadata values may be nested", `{"suiteName":"s","externalRunId":"r","results":[{"caseTitle":"c","passed":true,"metadata":{"retryCount":0,
		  "predicates":[{"predicate":{"type":"toolCalled","toolName":"x"},"passed":true,"reason":"r"}],"scores":[{"id":"s1","score":1}],
		  "evaluationConfig":{"hash":"h"},"none":null}}]}`, ""},
		{"metadata is an object", `{"suiteName":"s","externalRunId":"r","results":[{"caseTitle":"c","passed":true,"metadata":[1]}]}`, "results[0].metadata"},
		{"pass rate is a percent", `{"suiteName":"s","externalRunId":"r","passCriteria":{"minimumPassRate":101},"results":[]}`, "passCriteria.minimumPassRate"},
		{"missing externalRunId", `{"suiteName":"s","results":[]}`, "externalRunId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			checkField(t, report.CheckRequest(mustDecode(t, tt.body)), tt.field)
		})
	}
	up := c.Route("POST", "/projects/{projectId}/eval-ingest/artifacts/upload-url")
	checkField(t, up.CheckRequest(mustDecode(t, `{}`)), "")
	checkField(t, up.CheckRequest(mustDecode(t, `{"x":1}`)), "x")
}

func TestCheckResponse(t *testing.T) {
	c := mustLoad(t)
	me := c.Route("GET", "/me")
	checkField(t, me.CheckResponse(401, mustDecode(t, `{"code":"UNAUTHORIZED","message":"no"}`)), "")
	checkField(t, me.CheckResponse(401, mustDecode(t, `{"code":"NOPE","message":"no"}`)), "code")
	checkField(t, me.CheckResponse(201, mustDecode(t, `{}`)), "-")
	// An error status the route does not list still needs the envelope.
	checkField(t, me.CheckResponse(409, mustDecode(t, `{"code":"CONFLICT","message":"m"}`)), "")
	checkField(t, me.CheckResponse(409, mustDecode(t, `{"message":"m"}`)), "code")
	// The specification wins over the 07-09 enums.
	cancel := c.Route("POST", "/projects/{projectId}/eval-runs/{runId}/cancel")
	checkField(t, cancel.CheckResponse(409, mustDecode(t, `{"code":"CONFLICT","message":"terminal"}`)), "")
	ingest := c.Route("POST", "/projects/{projectId}/eval-ingest/runs/iterations")
	checkField(t, ingest.CheckResponse(200, mustDecode(t, `{"ok":true,"inserted":2,"skipped":0,"total":2}`)), "")
	checkField(t, ingest.CheckResponse(200, mustDecode(t, `{"ok":true,"inserted":2}`)), "skipped")
}

func TestMatch(t *testing.T) {
	c := mustLoad(t)
	for _, tt := range []struct{ method, path, want string }{
		{"GET", "/projects/prj_1/hosts/hst_2", "/projects/{projectId}/hosts/{hostId}"},
		{"POST", "/projects/prj_1/eval-ingest/runs/start", "/projects/{projectId}/eval-ingest/runs/start"},
		{"POST", "/projects/prj_1/servers/srv_1/tools/call", "/projects/{projectId}/servers/{serverId}/tools/call"},
		{"GET", "/me/", "/me"},
		{"DELETE", "/me", ""},
		{"GET", "/projects//hosts", ""},
	} {
		got := ""
		if r := c.Match(tt.method, tt.path); r != nil {
			got = r.Pattern
		}
		if got != tt.want {
			t.Errorf("Match(%s %s) = %q, want %q", tt.method, tt.path, got, tt.want)
		}
	}
}

package projectopstest_test

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// TestBodiesWithBadTextRefused: a body with bytes that are not UTF-8, or
// with a repeated key at any depth, is 400 VALIDATION_ERROR (naming the
// key's path) and nothing is stored; encoding/json alone would store
// U+FFFD or the last value.
func TestBodiesWithBadTextRefused(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	p := "/projects/" + ws.ProjectID
	cases := []struct{ name, path, body, field string }{
		{"duplicate top-level key", p + "/hosts", `{"name":"a","template":"claude","name":"b"}`, "name"},
		{"duplicate nested key", p + "/eval-ingest/report", `{"suiteName":"s","externalRunId":"e","results":[` +
			`{"caseTitle":"a","passed":true},{"caseTitle":"b","passed":true,"passed":false}]}`, "results[1].passed"},
		{"duplicate key deep", p + "/eval-ingest/report", `{"suiteName":"s","externalRunId":"e2","ci":{"branch":"x","branch":"y"},"results":[]}`, "ci.branch"},
		{"invalid UTF-8", p + "/hosts", "{\"name\":\"a\xff\xfe\",\"template\":\"claude\"}", "name"},
		{"invalid UTF-8 ingest", p + "/eval-ingest/report", "{\"suiteName\":\"s\xc3\",\"externalRunId\":\"e3\",\"results\":[]}", "suiteName"},
	}
	for _, tg := range targets(t, srv) {
		for _, tc := range cases {
			t.Run(tg.name+"/"+tc.name, func(t *testing.T) {
				tg.call(t, "POST", tc.path, ws.APIKey, tc.body).wantField(t, tc.field)
			})
		}
	}
	var hosts rawPage
	inproc(srv).call(t, "GET", p+"/hosts", ws.APIKey, nil).decode(t, &hosts)
	if len(hosts.Items) != 0 {
		t.Errorf("refused bodies stored hosts: %v", hosts.Items)
	}
	if runs := srv.IngestedRuns(""); len(runs) != 0 {
		t.Errorf("refused bodies stored %d ingested runs", len(runs))
	}
	// The same keys in sibling objects are not duplicates.
	if r := inproc(srv).call(t, "POST", p+"/eval-ingest/report", ws.APIKey, `{"suiteName":"s","externalRunId":"ok",`+
		`"results":[{"caseTitle":"a","passed":true,"metadata":{"k":1}},{"caseTitle":"b","passed":true,"metadata":{"k":2}}]}`); r.status != 200 {
		t.Errorf("sibling objects sharing keys: %d %s", r.status, r.body)
	}
}

// A body JavaScript's String.prototype.trim() empties is no body, {}, as
// the service's server routes read it (they read the body as text and test
// text.trim()): form feed, vertical tab, NBSP, U+2028, a BOM past the one
// text decoding drops. JSON.parse itself skips JSON's white space only, so
// such a character around a value is still invalid JSON.
func TestBlankBodiesReadAsEmpty(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	serverID := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo",
		MCPServer: projectopstest.DemoMCPServer()}))
	tools := "/projects/" + ws.ProjectID + "/servers/" + serverID + "/tools"
	for _, tg := range targets(t, srv) {
		for _, body := range []string{"\f", "\v", "\u00a0", "\u2028", "\u3000", "\ufeff\ufeff", " \f\n"} {
			if r := tg.call(t, "POST", tools, ws.APIKey, body); r.status != 200 {
				t.Errorf("%s: body %q: %d %s, want 200 (a blank body is {})", tg.name, body, r.status, r.body)
			}
		}
		for _, body := range []string{"\f{}", "{}\u00a0", "\u0085"} {
			if b := tg.call(t, "POST", tools, ws.APIKey, body).wantError(t, shared.CodeValidation); b.Message != "Invalid JSON body" {
				t.Errorf("%s: body %q: message %q, want Invalid JSON body", tg.name, body, b.Message)
			}
		}
	}
}

// The eval-ingest routes read a body as text and parse it unless it is
// empty (eval-ingest.ts proxyIngest: `raw ? JSON.parse(raw) : {}`): only an
// empty body is {}; white space, JSON's or trim()'s, is JSON.parse's
// SyntaxError, 400 Invalid JSON body.
func TestIngestWhitespaceBodyIsInvalidJSON(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	path := "/projects/" + ws.ProjectID + "/eval-ingest/runs/start"
	for _, tg := range targets(t, srv) {
		for _, body := range []string{" ", "\n", "\f", "\u00a0", "\ufeff "} {
			if b := tg.call(t, "POST", path, ws.APIKey, body).wantError(t, shared.CodeValidation); b.Message != "Invalid JSON body" {
				t.Errorf("%s: body %q: message %q, want Invalid JSON body", tg.name, body, b.Message)
			}
		}
		// An empty body (a lone mark is one, as text() drops it) is {}.
		for _, body := range []string{"", "\ufeff"} {
			if b := tg.call(t, "POST", path, ws.APIKey, body).wantError(t, shared.CodeValidation); !strings.Contains(b.Message, "suiteName") {
				t.Errorf("%s: body %q: message %q, want the missing suiteName of {}", tg.name, body, b.Message)
			}
		}
	}
}

// Tunnel create parses the whole body (tunnels.ts: c.req.json()), so even
// an empty one is invalid JSON, not {}.
func TestTunnelCreateEmptyBodyIsInvalidJSON(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	path := "/projects/" + ws.ProjectID + "/tunnels"
	for _, tg := range targets(t, srv) {
		for _, body := range []string{"", " ", "\f"} {
			if b := tg.call(t, "POST", path, ws.APIKey, body).wantError(t, shared.CodeValidation); b.Message != "Invalid JSON body" {
				t.Errorf("%s: body %q: message %q, want Invalid JSON body", tg.name, body, b.Message)
			}
		}
	}
}

package ingest_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/shared"
)

func intp(n int) *int    { return &n }
func boolp(b bool) *bool { return &b }

// Every field reference-notes 3.8 documents reaches the service as the
// notes type it, through the Reporter, and the double stores it as sent.
func TestReporterSendsEveryDocumentedField(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{
		SuiteName: "fields", ExternalRunID: "ext-fields", EvaluationConfigHash: "cfg-1",
		HostConfig: map[string]any{"temperature": 0.7, "connectionDefaults": map[string]any{"headers": map[string]any{}, "requestTimeout": 10000},
			"hostContext": map[string]any{}, "clientCapabilities": map[string]any{}},
		ServerReplayConfigs: []ingest.ServerReplayConfig{{ServerID: "srv_1", URL: "https://mcp.example/mcp", AccessToken: "at-secret", ClientSecret: "cs-secret"}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	res := ingest.Result{CaseTitle: "books", Passed: true, ErrorDetails: "stack", Query: "q", ExpectedOutput: "o",
		IsNegativeTest: true, CaseID: "c1", ExternalCaseID: "c1", Metadata: map[string]any{"n": 1, "s": "x", "b": true},
		AdvancedConfig:  map[string]any{"system": "brief"},
		MatchOptions:    &ingest.MatchOptions{ToolCallOrder: ingest.ToolCallOrderSuperset, MaxExtraToolCalls: intp(2), AllowExtraToolCalls: boolp(true), ArgumentMatching: ingest.ArgumentMatchingPartial},
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "search", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: "<p>hi</p>"}},
	}
	if err := rep.Record(ctx, res); err != nil {
		t.Fatal(err)
	}
	out, err := rep.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	its, ok := f.srv.IngestedIterations(out.Run.RunID)
	if !ok || len(its) != 1 {
		t.Fatalf("stored: %v %d", ok, len(its))
	}
	var got map[string]any
	if err := json.Unmarshal(its[0].Raw, &got); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"errorDetails", "query", "expectedOutput", "isNegativeTest", "caseId", "metadata", "advancedConfig", "matchOptions", "widgetSnapshots"} {
		if _, ok := got[k]; !ok {
			t.Errorf("stored row lacks %s: %s", k, its[0].Raw)
		}
	}
	snap := got["widgetSnapshots"].([]any)[0].(map[string]any)
	if snap["protocol"] != "mcp-apps" || snap["widgetHtml"] != "<p>hi</p>" {
		t.Errorf("snapshot: %v", snap)
	}
	runs := f.srv.IngestedRuns(f.ws.ProjectID)
	if len(runs) != 1 || runs[0].Params.EvaluationConfigHash != "cfg-1" || len(runs[0].Params.ServerReplayConfigs) != 1 ||
		runs[0].Params.ServerReplayConfigs[0].AccessToken != "at-secret" {
		t.Errorf("run params stored: %+v", runs)
	}
}

// A result the service would refuse is a VALIDATION_ERROR before anything
// is sent: an unknown protocol or match mode, a cap on extra tool calls
// with unlimited.
func TestRecordRefusesWhatTheServiceRefuses(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{SuiteName: "s"}})
	if err != nil {
		t.Fatal(err)
	}
	for field, res := range map[string]ingest.Result{
		"widgetSnapshots[0].protocol": {CaseTitle: "c", WidgetSnapshots: []ingest.WidgetSnapshot{{Protocol: "openai"}}},
		"matchOptions.toolCallOrder":  {CaseTitle: "c", MatchOptions: &ingest.MatchOptions{ToolCallOrder: "random"}},
		"matchOptions.maxExtraToolCalls": {CaseTitle: "c", MatchOptions: &ingest.MatchOptions{MaxExtraToolCalls: intp(1),
			UnlimitedExtraToolCalls: true}},
		// JSON given as is that is not JSON: encoding/json's error, typed.
		"trace":                      {CaseTitle: "c", Trace: json.RawMessage(`{"secret-trace": `)},
		"metadata.raw":               {CaseTitle: "c", Metadata: map[string]any{"ok": 1, "raw": json.RawMessage(`{"secret-trace": `)}},
		"advancedConfig.temperature": {CaseTitle: "c", AdvancedConfig: map[string]any{"temperature": math.NaN()}},
	} {
		err := rep.Record(t.Context(), res)
		wantCode(t, err, projectops.CodeValidation, field)
		if strings.Contains(err.Error(), "secret-trace") {
			t.Errorf("%s: the error echoes the value: %v", field, err)
		}
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for refused results", n)
	}
	if _, err := rep.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// Nested metadata, as the service's own reporter sends it since 2026-08-05
// (predicate verdicts under metadata.predicates, scores, its evaluation
// config), is recorded and stored as given, redacted like any other field.
func TestReporterRecordsNestedMetadata(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{SuiteName: "predicates"}})
	if err != nil {
		t.Fatal(err)
	}
	res := ingest.Result{CaseTitle: "case", Passed: true, Metadata: map[string]any{
		"iterationNumber": 1,
		"predicates": []any{map[string]any{"predicate": map[string]any{"type": "toolCalled", "toolName": "search"},
			"passed": true, "reason": "called with key " + f.ws.APIKey}},
		"scores":           []any{map[string]any{"id": "s1", "score": 1}},
		"evaluationConfig": map[string]any{"hash": "abc"},
	}}
	if err := rep.Record(t.Context(), res); err != nil {
		t.Fatalf("Record with nested metadata: %v", err)
	}
	out, err := rep.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	its, _ := f.srv.IngestedIterations(out.Run.RunID)
	if len(its) != 1 {
		t.Fatalf("stored %d rows", len(its))
	}
	var row struct {
		Metadata struct {
			Predicates []struct {
				Predicate map[string]string `json:"predicate"`
				Reason    string            `json:"reason"`
			} `json:"predicates"`
			Scores           []map[string]any `json:"scores"`
			EvaluationConfig map[string]any   `json:"evaluationConfig"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(its[0].Raw, &row); err != nil {
		t.Fatal(err)
	}
	m := row.Metadata
	if len(m.Predicates) != 1 || m.Predicates[0].Predicate["toolName"] != "search" || len(m.Scores) != 1 || m.EvaluationConfig["hash"] != "abc" {
		t.Errorf("stored metadata: %s", its[0].Raw)
	}
	if strings.Contains(string(its[0].Raw), f.ws.APIKey) || !strings.HasPrefix(m.Predicates[0].Reason, "called with key ") {
		t.Errorf("the key in a nested value was not redacted: %s", its[0].Raw)
	}
}

// Widget HTML that would not fit a chunk goes through an upload URL and
// the row carries its blob id, as the service's reporter sends it.
func TestLargeWidgetHTMLIsUploaded(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	html := "<html>" + strings.Repeat("widget ", 300_000) + "</html>" // ~2 MiB: over a chunk
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{SuiteName: "w"}})
	if err != nil {
		t.Fatal(err)
	}
	err = rep.Record(ctx, ingest.Result{CaseTitle: "renders", Passed: true,
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: html}}})
	if err != nil {
		t.Fatal(err)
	}
	out, err := rep.Close(ctx)
	if err != nil {
		t.Fatal(err)
	}
	its, _ := f.srv.IngestedIterations(out.Run.RunID)
	if len(its) != 1 || its[0].Input.WidgetSnapshots[0].WidgetHTML != "" {
		t.Fatalf("rows: %d", len(its))
	}
	id := its[0].Input.WidgetSnapshots[0].WidgetHTMLBlobID
	data, ct, ok := f.srv.Artifact(id)
	if !ok || string(data) != html || !strings.HasPrefix(ct, "text/html") {
		t.Errorf("artifact %q: %d bytes, %q, %v", id, len(data), ct, ok)
	}
}

// Widget HTML is redacted whether it goes inline or, too large for a
// chunk, through an upload URL (it was once uploaded in clear). A header
// value runs to the end of its source line, as in text: a page on one line
// loses the rest of that line (over-redaction is the safe side), a page on
// several lines keeps the lines after it.
func TestUploadedWidgetHTMLIsRedacted(t *testing.T) {
	t.Parallel()
	const secrets = `<pre>Authorization: Bearer tok_abcdefghijklmnop</pre><pre>key=sk_live_ABCDEFGH12345678</pre>`
	for _, tc := range []struct {
		name string
		pad  int
		nl   string
	}{{"inline", 100, "\n"}, {"uploaded", 3 << 20, "\n"}, {"inline one line", 100, ""}, {"uploaded one line", 3 << 20, ""}} {
		f := setup(t)
		r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.Strict = true })
		html := "<html>" + tc.nl + strings.Repeat("x", tc.pad) + tc.nl + secrets + tc.nl + "</html>"
		if err := r.Record(t.Context(), ingest.Result{CaseTitle: "widget", Passed: true, WidgetSnapshots: []ingest.WidgetSnapshot{{
			ToolCallID: "call-1", ToolName: "show", ServerID: "srv", ResourceURI: "ui://w", WidgetHTML: html}}}); err != nil {
			t.Fatal(err)
		}
		out, err := r.Close(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		its, _ := f.srv.IngestedIterations(out.Run.RunID)
		if len(its) != 1 || len(its[0].Input.WidgetSnapshots) != 1 {
			t.Fatalf("%s: rows %+v", tc.name, its)
		}
		stored := its[0].Input.WidgetSnapshots[0].WidgetHTML
		if id := its[0].Input.WidgetSnapshots[0].WidgetHTMLBlobID; id != "" {
			data, _, ok := f.srv.Artifact(id)
			if !ok {
				t.Fatalf("%s: artifact %s missing", tc.name, id)
			}
			stored = string(data)
		}
		uploaded := its[0].Input.WidgetSnapshots[0].WidgetHTMLBlobID != ""
		if uploaded != strings.HasPrefix(tc.name, "uploaded") {
			t.Errorf("%s: uploaded %v", tc.name, uploaded)
		}
		want := "<pre>Authorization: [REDACTED]" + tc.nl
		if tc.nl != "" {
			want += "</html>"
		}
		if !strings.HasSuffix(stored, want) || len(stored) < tc.pad {
			t.Errorf("%s: %d bytes stored, ending %q; want the page up to the header, ending %q", tc.name, len(stored), stored[max(0, len(stored)-120):], want)
		}
		for _, s := range []string{"tok_abcdefghijklmnop", "sk_live_ABCDEFGH12345678"} {
			if strings.Contains(stored, s) {
				t.Errorf("%s widget HTML: %q reached the service in clear", tc.name, s)
			}
		}
	}
}

// A widget upload that fails is no reporting failure: the result goes out
// cut to fit, and the rest of the run with it.
func TestFailedWidgetUploadKeepsTheRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	f.srv.SetFault(routeUploadURL, projectopstest.Fault{Status: http.StatusInternalServerError, Times: 10})
	html := "<html>" + strings.Repeat("widget ", 300_000) + "</html>"
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Strict: true, Run: ingest.RunParams{SuiteName: "w"},
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	results := []ingest.Result{{CaseTitle: "before", Passed: true},
		{CaseTitle: "renders", Passed: true, WidgetSnapshots: []ingest.WidgetSnapshot{
			{ToolCallID: "tc", ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w", WidgetHTML: html}}},
		{CaseTitle: "after", Passed: true}}
	for _, res := range results {
		if err := rep.Record(ctx, res); err != nil {
			t.Fatalf("Record %s: %v", res.CaseTitle, err)
		}
	}
	out, err := rep.Close(ctx)
	if err != nil || out.Sent != 3 || out.Truncated != 1 {
		t.Fatalf("Close: sent %d, truncated %d, %v; want 3 sent, 1 truncated", out.Sent, out.Truncated, err)
	}
	its, _ := f.srv.IngestedIterations(out.Run.RunID)
	if len(its) != 3 {
		t.Fatalf("rows: %d, want 3", len(its))
	}
}

// A failed widget upload costs the result its widget HTML only, as the
// logged warning says: the snapshot (tool call id, resource URI, ...), the
// metadata and advancedConfig are sent (all of them were once dropped).
func TestFailedWidgetUploadDropsOnlyTheHTML(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault("POST /eval-ingest-uploads/{token}", projectopstest.Fault{Status: http.StatusServiceUnavailable})
	var logged bytes.Buffer
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.Strict = true
		o.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	})
	if err := r.Record(t.Context(), ingest.Result{CaseTitle: "widget", Passed: true,
		Metadata:       map[string]any{"model": "m1"},
		AdvancedConfig: map[string]any{"temperature": 0.2},
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "call-1", ToolName: "show", ServerID: "srv", ResourceURI: "ui://w",
			WidgetHTML: "<html>" + strings.Repeat("x", 3<<20) + "</html>"}}}); err != nil {
		t.Fatal(err)
	}
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	its, _ := f.srv.IngestedIterations(out.Run.RunID)
	if len(its) != 1 || out.Truncated != 1 {
		t.Fatalf("rows: %d, truncated %d", len(its), out.Truncated)
	}
	if !strings.Contains(logged.String(), "level=WARN") || !strings.Contains(logged.String(), "widget HTML dropped from the result") {
		t.Errorf("log: %s", logged.String())
	}
	got := its[0].Input
	if len(got.WidgetSnapshots) != 1 || got.WidgetSnapshots[0].ToolCallID != "call-1" || got.WidgetSnapshots[0].ResourceURI != "ui://w" ||
		strings.Contains(got.WidgetSnapshots[0].WidgetHTML, "xxxx") {
		t.Errorf("widget snapshot lost, not just its HTML: %s", its[0].Raw)
	}
	if got.Metadata["model"] != "m1" || got.AdvancedConfig["temperature"] != 0.2 {
		t.Errorf("metadata/advancedConfig lost: %s", its[0].Raw)
	}
}

// Replay configs carry tokens and a client secret: no fmt verb, no slog
// handler and no spool file shows them.
func TestReplaySecretsNeverShow(t *testing.T) {
	t.Parallel()
	cfg := ingest.ServerReplayConfig{ServerID: "srv", URL: "https://x", AccessToken: "tok-AAA", RefreshToken: "tok-BBB", ClientSecret: "tok-CCC"}
	// A tunnel URL's ?k= is a secret too.
	tunnel := ingest.ServerReplayConfig{ServerID: "srv2", URL: "https://relay.example/tunnels/abc/mcp?k=tok-KKK12345678"}
	p := ingest.RunParams{SuiteName: "s", ServerReplayConfigs: []ingest.ServerReplayConfig{cfg, tunnel}}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("run", "cfg", cfg, "params", p,
		"nested", []ingest.ServerReplayConfig{cfg}, "inMap", map[string]any{"p": p}, "report", ingest.ReportParams{RunParams: p})
	direct, _ := json.Marshal(p)
	logs.Write(direct)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("run", "cfg", cfg)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("run", "cfg", tunnel)
	direct, _ = json.Marshal(tunnel)
	logs.Write(direct)
	for _, out := range []string{fmt.Sprint(cfg), fmt.Sprintf("%v %+v %#v %s %q", cfg, cfg, cfg, cfg, cfg),
		fmt.Sprintf("%v %+v %#v %s %q", tunnel, tunnel, tunnel, tunnel, tunnel),
		fmt.Sprintf("%v %+v %#v", p, p, p), logs.String()} {
		if strings.Contains(out, "tok-") {
			t.Errorf("a replay secret shows: %s", out)
		}
	}
	// The spool keeps the run without them, and redacts the rest of the
	// run record as it does results.
	f := setup(t)
	dir := t.TempDir()
	p.Notes = "deployed with tok-sk_live_abcdefgh12345"
	p.HostConfig = map[string]any{"temperature": 0.7, "hostContext": map[string]any{}, "clientCapabilities": map[string]any{},
		"connectionDefaults": map[string]any{"headers": map[string]any{"Authorization": "tok-HDR-1234567890"}, "requestTimeout": 10000}}
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{SpoolDir: dir, Run: p})
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Record(t.Context(), ingest.Result{CaseTitle: "c", Passed: true}); err != nil {
		t.Fatal(err)
	}
	// Test output that prints a tunnel URL, in any of its spellings.
	for _, e := range []string{`Post "https://relay.example/tunnels/abc/mcp?k=tok-KKK12345678": dial tcp: refused`,
		`GET /tunnels/abc/mcp?x=1&k=tok-KKK12345678#f`, `redirect=https%3A%2F%2Frelay%2Ft%3Fk%3Dtok-KKK12345678%26x%3D1`} {
		if err := rep.Record(t.Context(), ingest.Result{CaseTitle: "d", Passed: false, Error: e}); err != nil {
			t.Fatal(err)
		}
	}
	_ = rep.Flush(t.Context()) // the spool stays until Close
	defer func() { _, _ = rep.Close(t.Context()) }()
	files := 0
	_ = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files++
			// The host config is left out whole: a redacted one must
			// never be resent by Resume.
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte("sk_live")) || bytes.Contains(b, []byte("HDR")) || bytes.Contains(b, []byte("tok-A")) || bytes.Contains(b, []byte("tok-K")) ||
				bytes.Contains(b, []byte("hostConfig")) {
				t.Errorf("spool file %s holds a secret: %s", path, b)
			}
		}
		return nil
	})
	if files == 0 {
		t.Fatal("no spool file to check")
	}
}

// A Reporter, a TBRecorder and their options print no secret either: the
// options sit behind unexported fields, where fmt cannot reach Format.
func TestReportersPrintNoSecrets(t *testing.T) {
	t.Parallel()
	cfg := ingest.ServerReplayConfig{ServerID: "srv", URL: "https://x", AccessToken: "tok-AAA", ClientSecret: "tok-CCC"}
	f := setup(t)
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true,
		Run: ingest.RunParams{SuiteName: "s", ServerReplayConfigs: []ingest.ServerReplayConfig{cfg}}})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _, _ = rep.Close(t.Context()) }()
	opt := ingest.TBOptions{SpoolDir: t.TempDir(), APIKey: "tok-KEY"}
	tb := ingest.NewTBRecorder(opt)
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "opt", opt)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "opt", opt, "rep", rep, "tb", tb)
	for _, out := range []string{fmt.Sprintf("%v %+v %#v", rep, rep, rep), fmt.Sprintf("%v %+v %#v", tb, tb, tb),
		fmt.Sprintf("%v %+v %#v", opt, opt, opt), logs.String()} {
		if strings.Contains(out, "tok-") {
			t.Errorf("a secret shows: %s", out)
		}
	}
}

// The billing refusal is never retried, whatever its status, and keeps its
// limit; a 2xx answer with ok:false that names it is that refusal too.
func TestBillingRefusal(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		status int
		body   string
		want   shared.BillingLimit
	}{
		{"as an error status", http.StatusTooManyRequests,
			`{"code":"billing_limit_reached","message":"limit for sk_test_REVIEWSECRET123","gateKey":"maxEvalIterationsPerMonth","resetsAt":1}`,
			shared.BillingLimit{GateKey: "maxEvalIterationsPerMonth", ResetsAt: 1}},
		{"as ok:false", http.StatusOK,
			`{"ok":false,"code":"billing_limit_reached","message":"limit for \u0073k_test_REVIEWSECRET123","limit":"maxEvalIterationsPerMonth",` +
				`"resetsAt":1790000000000,"currentValue":1000,"allowedValue":1000}`,
			shared.BillingLimit{GateKey: "maxEvalIterationsPerMonth", ResetsAt: 1790000000000, CurrentValue: 1000, AllowedValue: 1000}},
	} {
		var calls int
		rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
			calls++
			return &http.Response{StatusCode: tt.status, Header: http.Header{"Content-Type": {"application/json"}},
				Body: io.NopCloser(strings.NewReader(tt.body)), Request: r}, nil
		})
		// A backend may reflect the key into the message: it never reaches
		// the error.
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_REVIEWSECRET123"), option.WithTransport(rt),
			option.WithBaseURL("https://api.example/api/v1"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.Ingest.StartRun(t.Context(), ingest.DefaultProject, ingest.RunParams{SuiteName: "s", ExternalRunID: "e"})
		if err != nil && strings.Contains(err.Error(), "REVIEWSECRET") {
			t.Errorf("%s: the key shows: %v", tt.name, err)
		}
		if !errors.Is(err, projectops.ErrBillingLimitReached) || calls != 1 {
			t.Fatalf("%s: err = %v after %d calls, want ErrBillingLimitReached after 1", tt.name, err, calls)
		}
		if tt.status == http.StatusOK && !errors.Is(err, ingest.ErrNotOK) {
			t.Errorf("%s: %v is not ErrNotOK", tt.name, err)
		}
		var e *shared.Error
		if !errors.As(err, &e) || e.Temporary() || !strings.HasPrefix(e.Message, "limit for ") || strings.Contains(fmt.Sprintf("%#v", e), "REVIEWSECRET") {
			t.Errorf("%s: error = %+v (a billing refusal is not temporary)", tt.name, e)
		}
		if e == nil || e.Billing == nil || *e.Billing != tt.want {
			t.Errorf("%s: billing limit = %+v", tt.name, e)
		}
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// The host config goes as the service's reporter sends it: without runtime
// server ids, their overrides and the computer, with hostConfigHash its
// content address, which the double recomputes and checks (against the
// service's own vectors in internal/hostconfig). A config the validator
// refuses is a VALIDATION_ERROR, sent nowhere.
func TestHostConfigHashIsComputed(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := map[string]any{"hostStyle": "claude", "temperature": 0.7, "hostContext": map[string]any{}, "clientCapabilities": map[string]any{},
		"connectionDefaults": map[string]any{"headers": map[string]any{}, "requestTimeout": 10000},
		"serverIds":          []string{"srv_b", "srv_a"}, "computer": map[string]any{"kind": "personal"}}
	_, err := f.c.Ingest.StartRun(t.Context(), ingest.DefaultProject, ingest.RunParams{SuiteName: "h", ExternalRunID: "h-1",
		HostConfig: cfg, HostConfigHash: "set by the caller"})
	if err != nil {
		t.Fatal(err)
	}
	runs := f.srv.IngestedRuns(f.ws.ProjectID)
	if len(runs) != 1 {
		t.Fatalf("runs: %+v", runs)
	}
	got := runs[0].Params
	if len(got.HostConfigHash) != 64 || got.HostConfig["serverIds"] != nil || got.HostConfig["computer"] != nil {
		t.Errorf("sent hostConfig %v, hash %q", got.HostConfig, got.HostConfigHash)
	}
	if cfg["serverIds"] == nil {
		t.Error("the caller's config was changed")
	}
	// Header values travel in clear, whatever their names, and show
	// nowhere else.
	hcfg := ingest.HostConfig{"temperature": 0.7, "hostContext": map[string]any{}, "clientCapabilities": map[string]any{},
		"connectionDefaults": map[string]any{"headers": map[string]any{"X-Tenant-Token": "tok-TENANT"}, "requestTimeout": 10000}}
	p := ingest.RunParams{SuiteName: "h", ExternalRunID: "h-3", HostConfig: hcfg}
	if _, err := f.c.Ingest.StartRun(t.Context(), ingest.DefaultProject, p); err != nil {
		t.Fatal(err)
	}
	for _, r := range f.srv.IngestedRuns(f.ws.ProjectID) {
		if r.Params.ExternalRunID == "h-3" && !strings.Contains(fmt.Sprint(map[string]any(r.Params.HostConfig)), "tok-TENANT") {
			t.Errorf("the header did not reach the service: %v", map[string]any(r.Params.HostConfig))
		}
	}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "nested", []ingest.RunParams{p}, "cfg", hcfg)
	direct, _ := json.Marshal(p)
	if out := fmt.Sprintf("%v %+v %#v", p, p, hcfg) + logs.String() + string(direct); strings.Contains(out, "tok-TENANT") {
		t.Errorf("a header value shows: %s", out)
	}
	n := len(f.srv.Requests())
	_, err = f.c.Ingest.StartRun(t.Context(), ingest.DefaultProject, ingest.RunParams{SuiteName: "h", ExternalRunID: "h-2",
		HostConfig: map[string]any{"temperature": "warm"}})
	wantCode(t, err, projectops.CodeValidation, "hostConfig")
	if len(f.srv.Requests()) != n {
		t.Error("an invalid host config was sent")
	}
}

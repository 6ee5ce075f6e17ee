package evals_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/sdktest"
)

// serviceTrace is a trace as the service's reporter sends it: messages as
// its model layer writes them (content a string or a list of parts), spans
// with the model-call and MCP fields, prompts with argument mismatches, and
// a field this SDK does not know.
const serviceTrace = `{"messages":[
 {"role":"system","content":"be brief"},
 {"role":"user","content":[{"type":"text","text":"weather in Paris?"}]},
 {"role":"assistant","content":[{"type":"text","text":"checking"},{"type":"tool-call","toolCallId":"c1","toolName":"weather","input":{"city":"Paris"}}]},
 {"role":"tool","content":[{"type":"tool-result","toolCallId":"c1","toolName":"weather","output":{"type":"json","value":{"t":21}}}]},
 {"role":"assistant","content":[{"type":"reasoning","text":"done"},{"type":"future-kind","x":1}]}],
 "spans":[{"id":"s1","name":"llm","category":"llm","startMs":0,"endMs":40,"promptIndex":0,"messageStartIndex":1,"messageEndIndex":2,
  "finishReason":"tool-calls","provider":"openai","responseId":"resp_1","responseTimestamp":"2026-11-25T10:00:00Z","ttfcMs":12.5},
  {"id":"s2","parentId":"s1","name":"weather","category":"tool","startMs":40,"endMs":45,"status":"error","toolCallId":"c1","toolName":"weather","mcpErrorCode":-32602}],
 "prompts":[{"promptIndex":0,"prompt":"weather in Paris?","expectedToolCalls":[{"toolName":"weather","arguments":{"city":"Paris"}}],
  "actualToolCalls":[{"toolName":"weather","arguments":{"city":"paris"}}],"expectedOutput":"sunny","passed":false,"missing":[],"unexpected":[],
  "argumentMismatches":[{"expected":{"toolName":"weather","arguments":{"city":"Paris"}},"actual":{"toolName":"weather","arguments":{"city":"paris"}},"mismatchedArguments":["city"]}]}],
 "raw":{"videoBlobId":"kg2"}}`

// The SDK reads the trace the service writes, not only the double's flat
// messages: a content list, the span and prompt fields the reference
// documents, and fields it does not know (kept in Raw).
func TestTraceReadsTheServiceShape(t *testing.T) {
	t.Parallel()
	f := sdktest.Setup(t)
	res, err := f.C.Ingest.Report(t.Context(), f.WS.ProjectID, ingest.ReportParams{RunParams: ingest.RunParams{SuiteName: "traces", ExternalRunID: "tr-1"},
		Results: []ingest.Result{{CaseTitle: "weather", Passed: false, Trace: json.RawMessage(serviceTrace)}}})
	if err != nil {
		t.Fatal(err)
	}
	page, err := f.C.Evals.Runs.ListIterations(t.Context(), f.WS.ProjectID, res.RunID, nil)
	if err != nil || len(page.Items) != 1 {
		t.Fatalf("iterations: %v, %v", page, err)
	}
	tr, err := f.C.Evals.Runs.Trace(t.Context(), f.WS.ProjectID, res.RunID, page.Items[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(tr.Messages) != 5 || len(tr.Spans) != 2 || len(tr.Prompts) != 1 {
		t.Fatalf("trace = %+v", tr)
	}
	m := tr.Messages
	if m[0].Content != "be brief" || m[0].Parts != nil || m[1].Content != "weather in Paris?" || m[2].Content != "checking" {
		t.Errorf("message text: %q %q %q", m[0].Content, m[1].Content, m[2].Content)
	}
	if call := m[2].Parts[1]; call.Type != "tool-call" || call.ToolCallID != "c1" || call.ToolName != "weather" || string(call.Input) != `{"city":"Paris"}` {
		t.Errorf("tool call part = %+v", call)
	}
	if r := m[3].Parts[0]; r.Type != "tool-result" || r.ToolName != "weather" || len(r.Output) == 0 {
		t.Errorf("tool result part = %+v", r)
	}
	if p := m[4].Parts[1]; p.Type != "future-kind" || string(p.Raw) != `{"type":"future-kind","x":1}` {
		t.Errorf("unknown part = %+v", p)
	}
	s1, s2 := tr.Spans[0], tr.Spans[1]
	if s1.PromptIndex == nil || *s1.PromptIndex != 0 || s1.MessageStartIndex == nil || *s1.MessageEndIndex != 2 ||
		s1.FinishReason != "tool-calls" || s1.Provider != "openai" || s1.ResponseID != "resp_1" ||
		s1.ResponseTimestamp != "2026-11-25T10:00:00Z" || s1.TtfcMs != 12.5 {
		t.Errorf("llm span = %+v", s1)
	}
	if s2.ToolCallID != "c1" || s2.MCPErrorCode != -32602 || s2.Status != "error" {
		t.Errorf("tool span = %+v", s2)
	}
	p := tr.Prompts[0]
	if p.ExpectedOutput != "sunny" || len(p.ArgumentMismatches) != 1 || p.ArgumentMismatches[0].MismatchedArguments[0] != "city" {
		t.Errorf("prompt = %+v", p)
	}
	var raw map[string]any
	if json.Unmarshal(tr.Raw, &raw) != nil || raw["raw"].(map[string]any)["videoBlobId"] != "kg2" {
		t.Errorf("Raw lost the unknown field: %s", tr.Raw)
	}
	// A message re-encodes as it came.
	if b, err := json.Marshal(m[2]); err != nil || string(b) != `{"role":"assistant","content":[{"type":"text","text":"checking"},{"type":"tool-call","toolCallId":"c1","toolName":"weather","input":{"city":"Paris"}}]}` {
		t.Errorf("re-encoded: %s, %v", b, err)
	}
}

// A section whose shape changed is left empty; the rest of the trace and
// Raw are still read.
func TestTraceToleratesAChangedSection(t *testing.T) {
	t.Parallel()
	var tr evals.Trace
	doc := `{"messages":[{"role":"user","content":"hi"}],"spans":{"now":"an object"},"prompts":[{"promptIndex":"zero"}]}`
	if err := json.Unmarshal([]byte(doc), &tr); err != nil {
		t.Fatal(err)
	}
	if len(tr.Messages) != 1 || tr.Messages[0].Content != "hi" || tr.Spans != nil || tr.Prompts != nil || string(tr.Raw) != doc {
		t.Fatalf("trace = %+v", tr)
	}
	if err := json.Unmarshal([]byte(`{"messages":[`), &tr); err == nil {
		t.Fatal("malformed JSON decoded")
	}
}

// The envelope the service stores for its own runs carries a version and
// fields this SDK does not know.
func TestTraceReadsTheStoredEnvelope(t *testing.T) {
	t.Parallel()
	var tr evals.Trace
	doc := `{"traceVersion":1,"messages":[{"role":"user","content":"hi"}],"videoBlobId":"kg2","widgetSnapshots":[]}`
	if err := json.Unmarshal([]byte(doc), &tr); err != nil || tr.TraceVersion != 1 || len(tr.Messages) != 1 || string(tr.Raw) != doc {
		t.Fatalf("trace = %+v, %v", tr, err)
	}
}

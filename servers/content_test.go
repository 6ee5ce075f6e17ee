package servers_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
)

// answering is a stand-in for the service answering every request with
// body.
func answering(t *testing.T, body string) *servers.Service {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(body))
	}))
	t.Cleanup(hs.Close)
	s, err := servers.NewService(option.WithBaseURL(hs.URL), option.WithAPIKey("sk_test"), option.WithoutEnvironment(),
		option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// A content block of a type go-sdk does not know (a newer revision's, a
// vendor's) is dropped; the tool has run, and the rest of its result is
// the caller's.
func TestCallToolDropsUnknownContentTypes(t *testing.T) {
	t.Parallel()
	s := answering(t, `{"content":[{"type":"text","text":"ok"},{"type":"x-widget","html":"<b>hi</b>"},`+
		`{"type":"image","data":"aGk=","mimeType":"image/png"}],"structuredContent":{"n":1},"isError":true}`)
	res, err := s.CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "render"})
	if err != nil {
		t.Fatalf("CallTool = %v; want the result without the unknown block", err)
	}
	if len(res.Content) != 2 || !res.IsError || res.StructuredContent == nil {
		t.Fatalf("result = %+v", res)
	}
	if txt, ok := res.Content[0].(*mcp.TextContent); !ok || txt.Text != "ok" {
		t.Errorf("content[0] = %#v", res.Content[0])
	}
	if _, ok := res.Content[1].(*mcp.ImageContent); !ok {
		t.Errorf("content[1] = %#v", res.Content[1])
	}
}

// A prompt message whose content go-sdk cannot read is dropped whole (a
// message without content is not one go-sdk can hold); the others stay.
func TestGetPromptDropsMessagesOfUnknownContent(t *testing.T) {
	t.Parallel()
	s := answering(t, `{"description":"d","messages":[{"role":"user","content":{"type":"x-widget","html":"<b>hi</b>"}},`+
		`{"role":"assistant","content":{"type":"text","text":"hello"}}]}`)
	res, err := s.GetPrompt(t.Context(), "prj_1", "srv_1", servers.GetPromptParams{PromptName: "p"})
	if err != nil {
		t.Fatalf("GetPrompt = %v", err)
	}
	if res.Description != "d" || len(res.Messages) != 1 || res.Messages[0].Role != "assistant" {
		t.Fatalf("result = %+v", res)
	}
}

// What is malformed apart from unknown blocks is still an error, and a
// result go-sdk reads is not touched.
func TestLenientDecodeKeepsErrors(t *testing.T) {
	t.Parallel()
	for _, body := range []string{
		`{"content":"not an array"}`,
		`{"content":[{"type":"x-widget"}],"isError":"yes"}`,
	} {
		if _, err := answering(t, body).CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "x"}); err == nil ||
			!strings.Contains(err.Error(), "decoding response") {
			t.Errorf("CallTool of %s = %v; want a decoding error", body, err)
		}
	}
	res, err := answering(t, `{"content":[{"type":"text","text":"<a&b>"}]}`).CallTool(t.Context(), "prj_1", "srv_1",
		servers.CallToolParams{ToolName: "x"})
	if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "<a&b>" {
		t.Fatalf("CallTool = %+v, %v", res, err)
	}
}

// Only a type go-sdk does not know is dropped: a malformed block of a known
// type, or a prompt message malformed otherwise, still fails the decode;
// within a tool_result only its unknown nested blocks go.
func TestLenientDropsOnlyUnknownTypes(t *testing.T) {
	t.Parallel()
	for _, block := range []string{
		`{"type":"text","text":5}`,
		`{"type":"text","text":"b","annotations":{"priority":"high"}}`,
		`{"type":"image","data":"not base64!!","mimeType":"image/png"}`,
		`{"type":"resource","resource":"file:///x"}`,
	} {
		body := `{"content":[{"type":"text","text":"a"},` + block + `,{"type":"x-widget"}]}`
		if res, err := answering(t, body).CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "x"}); err == nil {
			t.Errorf("CallTool with %s = %d blocks, nil error; want a decoding error", block, len(res.Content))
		}
	}
	body := `{"content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"kept"},{"type":"x-widget"}]}]}`
	res, err := answering(t, body).CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "x"})
	if err != nil {
		t.Fatal(err)
	}
	//lint:ignore SA1019 a tool_result is still what go-sdk decodes it into
	if tr, ok := res.Content[0].(*mcp.ToolResultContent); len(res.Content) != 1 || !ok || tr.ToolUseID != "u1" || len(tr.Content) != 1 {
		t.Fatalf("content = %#v; want the tool_result with its known block", res.Content)
	}
	body = `{"messages":[{"role":7,"content":{"type":"text","text":"a"}},{"role":"user","content":{"type":"x-widget"}}]}`
	if p, err := answering(t, body).GetPrompt(t.Context(), "prj_1", "srv_1", servers.GetPromptParams{PromptName: "p"}); err == nil {
		t.Errorf("GetPrompt = %d messages, nil error; want a decoding error for role 7", len(p.Messages))
	}
}

// A block of an unknown type is dropped whatever its other members hold: a
// vendor block whose "content" is an object or a string is still unknown,
// at the top, in a tool_result and as a prompt message's content.
func TestUnknownBlockWithOddContentIsDropped(t *testing.T) {
	t.Parallel()
	for _, block := range []string{
		`{"type":"x-widget","content":{"html":"<b>hi</b>"}}`,
		`{"type":"x-widget","content":"hi"}`,
	} {
		body := `{"content":[{"type":"text","text":"a"},` + block + `]}`
		if res, err := answering(t, body).CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "x"}); err != nil || len(res.Content) != 1 {
			t.Errorf("CallTool with %s = %v; want the text block alone", block, err)
		}
		body = `{"content":[{"type":"tool_result","toolUseId":"u1","content":[{"type":"text","text":"a"},` + block + `]}]}`
		if _, err := answering(t, body).CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "x"}); err != nil {
			t.Errorf("CallTool with %s nested in a tool_result = %v; want it dropped", block, err)
		}
		body = `{"messages":[{"role":"user","content":` + block + `},{"role":"assistant","content":{"type":"text","text":"hello"}}]}`
		if p, err := answering(t, body).GetPrompt(t.Context(), "prj_1", "srv_1", servers.GetPromptParams{PromptName: "p"}); err != nil || len(p.Messages) != 1 {
			t.Errorf("GetPrompt with %s = %v; want the text message alone", block, err)
		}
	}
}

// The service's resources/read route wraps the MCP result as
// {"content": {"contents": [...]}}, the reference answers it bare: both
// read as the one result.
func TestReadResourceReadsBothBodies(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"reference": `{"contents":[{"uri":"file:///a.txt","mimeType":"text/plain","text":"alpha text"}]}`,
		"service":   `{"content":{"contents":[{"uri":"file:///a.txt","mimeType":"text/plain","text":"alpha text"}]}}`,
	} {
		rr, err := answering(t, body).ReadResource(t.Context(), "prj_1", "srv_1", servers.ReadResourceParams{URI: "file:///a.txt"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(rr.Contents) != 1 || rr.Contents[0].Text != "alpha text" || rr.Contents[0].MIMEType != "text/plain" {
			t.Errorf("%s body: contents = %+v; want the one text content", name, rr.Contents)
		}
	}
}

// The service's prompts/get route wraps the MCP result as
// {"content": {"messages": [...]}} (as resources/read does), the reference
// answers it bare: both read as the one result.
func TestGetPromptReadsBothBodies(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"reference":    `{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hello"}}]}`,
		"service":      `{"content":{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hello"}}]}}`,
		"null members": `{"messages":null,"content":{"description":"d","messages":[{"role":"user","content":{"type":"text","text":"hello"}}]}}`,
	} {
		gp, err := answering(t, body).GetPrompt(t.Context(), "prj_1", "srv_1", servers.GetPromptParams{PromptName: "greet"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(gp.Messages) != 1 || gp.Description != "d" {
			t.Errorf("%s body: description %q, %d messages; want the one message", name, gp.Description, len(gp.Messages))
		}
	}
}

// A JSON null top-level contents is no contents: the wrapped result is
// still read.
func TestReadResourceNullContentsUnwraps(t *testing.T) {
	t.Parallel()
	body := `{"contents":null,"content":{"contents":[{"uri":"file:///a.txt","text":"alpha text"}]}}`
	rr, err := answering(t, body).ReadResource(t.Context(), "prj_1", "srv_1", servers.ReadResourceParams{URI: "file:///a.txt"})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].Text != "alpha text" {
		t.Errorf("contents = %+v; want the one text content", rr.Contents)
	}
}

// A prompt message of an unknown block type is still dropped from the
// service's wrapped body.
func TestGetPromptWrappedDropsUnknownBlocks(t *testing.T) {
	t.Parallel()
	body := `{"content":{"messages":[{"role":"user","content":{"type":"text","text":"hello"}},` +
		`{"role":"user","content":{"type":"x-widget","html":"<b>hi</b>"}}]}}`
	gp, err := answering(t, body).GetPrompt(t.Context(), "prj_1", "srv_1", servers.GetPromptParams{PromptName: "greet"})
	if err != nil {
		t.Fatal(err)
	}
	if len(gp.Messages) != 1 {
		t.Errorf("%d messages; want the known one", len(gp.Messages))
	}
}

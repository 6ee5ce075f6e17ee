package projectopstest_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// A saved server's raw header values are secrets: the spec never shows
// them (§4.2 "STDIO command, args, env and raw headers are never
// included"), and the README promises they never appear in errors. A
// short API key (under 8 bytes) that the MCP server quotes back in its
// JSON-RPC error is taken out too, as a whole token.
func TestShortHeaderSecretNotInErrorEnvelope(t *testing.T) {
	t.Parallel()
	const secret = "k-91x7" // a short, but real, API key
	s := mcp.NewServer(&mcp.Implementation{Name: "quoter", Version: "1.0.0"}, nil)
	s.AddPrompt(&mcp.Prompt{Name: "p"}, func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return nil, errors.New("key " + req.Extra.Header.Get("X-Api-Key") + " is not allowed to render prompts")
	})
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)

	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "quoter",
		URL: hs.URL, Headers: map[string]projectopstest.Secret{"X-Api-Key": secret}}))
	r := inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/prompts/get", ws.APIKey, `{"promptName":"p"}`)
	if r.status < 400 {
		t.Fatalf("status %d %s, want an error", r.status, r.body)
	}
	if strings.Contains(string(r.body), secret) {
		t.Errorf("error envelope reveals the saved header value %q: %d %s", secret, r.status, r.body)
	}
}

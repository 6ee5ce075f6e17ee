package projectopstest_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// A server that fails quoting its saved raw headers (a bearer, a custom
// header) does not get them into the double's error envelope or doctor
// report: they are never shown, and the double passes a server's message
// on.
func TestServerErrorNeverShowsSavedHeaders(t *testing.T) {
	t.Parallel()
	const bearer, custom = "S3CRET-bearer-9f8e7d6c", "S3CRET-tenant-1a2b3c4d"
	s := mcp.NewServer(&mcp.Implementation{Name: "echo-headers", Version: "1"}, nil)
	s.AddPrompt(&mcp.Prompt{Name: "p"}, func(_ context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		return nil, fmt.Errorf("bad auth header %q, tenant %s", r.Extra.Header.Get("Authorization"), r.Extra.Header.Get("X-Tenant"))
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(hs.Close)
	f := sdktest.Setup(t)
	id := sdktest.Must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "echo", URL: hs.URL,
		Headers: map[string]projectopstest.Secret{"Authorization": "Bearer " + bearer, "X-Tenant": custom}}))

	_, err := f.C.Servers.GetPrompt(t.Context(), f.WS.ProjectID, id, servers.GetPromptParams{PromptName: "p"})
	if err == nil || !strings.Contains(err.Error(), "bad auth header") {
		t.Fatalf("GetPrompt = %v, want the server's error", err)
	}
	st, body := f.Raw(t, http.MethodPost, "/projects/"+f.WS.ProjectID+"/servers/"+id+"/prompts/get", f.WS.APIKey, `{"promptName":"p"}`)
	shown := fmt.Sprintf("%v %d %+v", err, st, body)
	if strings.Contains(shown, "S3CRET") {
		t.Errorf("a saved header's value reached the envelope: %s", shown)
	}
}

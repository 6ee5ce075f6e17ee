package projectopstest_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
)

// An imported OAuth access token never appears in a response of the
// double, in any spelling (internal/mcpops/tokens.go, ImportTokens: "Token
// values appear in no response, log or error"): an MCP server's failure
// message that quotes it as is, percent-encoded (as a URL or form value
// carries it) or JSON-escaped (\/ or \u002f for '/', as a JSON dump inside
// a message writes it) reaches the caller's 500 answer without it.
func TestImportedTokenSpellingsNotInResponse(t *testing.T) {
	const at = "AT/secret+value==xyz9" // base64-ish, as OAuth tokens often are
	ms := mcp.NewServer(&mcp.Implementation{Name: "echoauth", Version: "1"}, nil)
	ms.AddPrompt(&mcp.Prompt{Name: "p"}, func(ctx context.Context, r *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
		tok := strings.TrimPrefix(r.Extra.Header.Get("Authorization"), "Bearer ")
		// A server's failure that quotes the bearer token it got, as is,
		// percent-encoded and in two JSON spellings.
		return nil, errors.New("raw=" + tok + " encoded=" + url.QueryEscape(tok) + " slash=" + strings.ReplaceAll(tok, "/", `\/`) + " u=" + strings.ReplaceAll(tok, "/", `\u002f`))
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return ms },
		&mcp.StreamableHTTPOptions{Stateless: true}))
	defer hs.Close()

	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	id, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "echoauth", URL: hs.URL, UseOAuth: true})
	if err != nil {
		t.Fatal(err)
	}
	base := srv.URL() + "/projects/" + ws.ProjectID + "/servers/" + id
	post := func(path, body string) (int, string) {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, base+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("/oauth/import-tokens", `{"serverUrl":"`+hs.URL+`","tokens":{"access_token":"`+at+`"}}`); code != 200 {
		t.Fatalf("import-tokens: %d %s", code, body)
	}
	code, body := post("/prompts/get", `{"promptName":"p"}`)
	var env struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}
	if err := json.Unmarshal([]byte(body), &env); err != nil {
		t.Fatalf("%d %s: %v", code, body, err)
	}
	shown := env.Message + fmt.Sprint(env.Details)
	if strings.Contains(shown, at) {
		t.Fatalf("the token as is is in the %d answer: %s", code, body)
	}
	for what, spelling := range map[string]string{
		"percent-encoded":       url.QueryEscape(at),                   // AT%2Fsecret%2Bvalue%3D%3Dxyz9
		`JSON-escaped "\/"`:     strings.ReplaceAll(at, "/", `\/`),     // AT\/secret+value==xyz9
		`JSON-escaped "\u002f"`: strings.ReplaceAll(at, "/", `\u002f`), // AT\u002fsecret+value==xyz9
	} {
		if strings.Contains(shown, spelling) {
			t.Errorf("the imported access token, %s (%s), is in the double's %d answer to prompts/get: %s", what, spelling, code, body)
		}
	}
}

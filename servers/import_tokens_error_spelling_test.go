package servers_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// ImportTokens' params never print their tokens, and the call's error is
// scrubbed of them (types_oauth.go: secrets; operations.go: "Secrets keeps
// them out of an error that quotes the body back") in any spelling: an
// error answer that quotes the token percent-encoded (a gateway echoing a
// URL or form value) or JSON-escaped another way than Go's (\/ or \u002f
// for '/', as a JSON dump inside a message writes it) shows it in none of
// %v, %+v, %#v and slog.
func TestImportTokensErrorTokenSpellings(t *testing.T) {
	f := setup(t)
	p := f.WS.ProjectID
	demo := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "demo", MCPServer: projectopstest.DemoMCPServer()}))
	const at = "AT/secret+value==xyz9"
	for _, enc := range []string{
		url.QueryEscape(at),                   // percent-encoded: AT%2Fsecret%2Bvalue%3D%3Dxyz9
		strings.ReplaceAll(at, "/", `\/`),     // JSON-escaped solidus, as a JSON dump in a message writes it
		strings.ReplaceAll(at, "/", `\u002f`), // JSON \u escape
	} {
		f.Srv.SetFault("POST /projects/{projectId}/servers/{serverId}/oauth/import-tokens", projectopstest.Fault{
			Status: 400, Code: "VALIDATION_ERROR", Message: "rejected " + enc, Details: map[string]any{"echo": enc}})
		_, err := f.C.Servers.ImportTokens(t.Context(), p, demo, servers.ImportTokensParams{
			ServerURL: projectopstest.InProcessServerURL("demo"), Tokens: servers.Tokens{AccessToken: at}})
		if err == nil {
			t.Fatal("no error")
		}
		var buf bytes.Buffer
		slog.New(slog.NewTextHandler(&buf, nil)).Error("import failed", "err", err)
		for _, out := range []string{fmt.Sprintf("%v", err), fmt.Sprintf("%+v", err), fmt.Sprintf("%#v", err), buf.String()} {
			if strings.Contains(out, enc) {
				t.Errorf("ImportTokens' error shows the access token spelled %s:\n%s", enc, out)
				break
			}
		}
	}
}

package servers_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/servers"
)

// slog's JSON handler encodes values with encoding/json unless they are
// slog.LogValuers, so fmt.Formatter alone does not keep tokens out of logs.
func TestImportTokensLogsNoSecret(t *testing.T) {
	t.Parallel()
	p := servers.ImportTokensParams{ServerURL: "https://x.test/mcp?k=tunnelsecret",
		OAuthResourceURL:  "https://x.test/res?k=resecret",
		ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "csecret"},
		Tokens:            servers.Tokens{AccessToken: "at-x", RefreshToken: "rt-x", IDToken: "id-x", Scope: "read"}}
	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewJSONHandler(&buf, nil), slog.NewTextHandler(&buf, nil)} {
		log := slog.New(h)
		log.Info("import", "params", p, "ptr", &p, "tokens", p.Tokens, "client", *p.ClientInformation,
			"clientPtr", p.ClientInformation, "tokensPtr", &p.Tokens)
	}
	out := buf.String()
	for _, secret := range []string{"tunnelsecret", "resecret", "csecret", "at-x", "rt-x", "id-x"} {
		if strings.Contains(out, secret) {
			t.Errorf("log shows %q:\n%s", secret, out)
		}
	}
	for _, want := range []string{"cid", "read", "x.test"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lost %q:\n%s", want, out)
		}
	}
}

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

// A token that is not set logs as an empty value, not as the two quote
// characters fmt's %v shows for it.
func TestImportTokensLogsUnsetTokenEmpty(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("import", "tokens",
		servers.Tokens{AccessToken: "at-x"}, "client", servers.ClientInformation{ClientID: "cid"})
	out := buf.String()
	for _, want := range []string{`"access_token":"[REDACTED]"`, `"refresh_token":""`, `"id_token":""`, `"clientSecret":""`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}
}

package servers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/servers"
)

// TestTunnelURLNeverPrinted: a record's tunnel URL keeps its ?k= secret on
// the wire but not in any fmt verb or slog output.
func TestTunnelURLNeverPrinted(t *testing.T) {
	t.Parallel()
	const u = "https://relay.example/tunnels/t1/mcp?k=s3cret"
	rec := servers.Server{ID: "srv_1", Name: "local", URL: u}
	res := servers.CheckOAuthResult{ServerURL: new(string)}
	*res.ServerURL = u
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "server", rec, "oauth", res)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "server", rec, "oauth", res)
	printed := fmt.Sprintf("%v %+v %#v %s %q", rec, rec, rec, rec, rec) + fmt.Sprintf("%v %+v %#v", res, res, res) + logs.String()
	if strings.Contains(printed, "s3cret") {
		t.Errorf("printed: %s", printed)
	}
	if !strings.Contains(fmt.Sprint(rec), "k=REDACTED") {
		t.Errorf("%%v = %v, want the URL with its secret redacted", rec)
	}
	b, err := json.Marshal(rec)
	if err != nil || !strings.Contains(string(b), "k=s3cret") {
		t.Errorf("JSON %s (%v) lost the wire value", b, err)
	}
}

// CheckOAuthResult prints its verdict, requiresAuthorization and
// effectiveAuthMethod, beside the redacted URL.
func TestCheckOAuthResultPrintsVerdict(t *testing.T) {
	t.Parallel()
	u := "https://relay.example/tunnels/t1/mcp?k=s3cret"
	res := servers.CheckOAuthResult{UseOAuth: true, RequiresAuthorization: true, EffectiveAuthMethod: "oauth", ServerURL: &u}
	var logs bytes.Buffer
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "oauth", res)
	for name, out := range map[string]string{"%+v": fmt.Sprintf("%+v", res), "slog": logs.String()} {
		if !strings.Contains(out, "RequiresAuthorization:true") && !strings.Contains(out, "requiresAuthorization=true") ||
			!strings.Contains(out, "EffectiveAuthMethod:oauth") && !strings.Contains(out, "effectiveAuthMethod=oauth") {
			t.Errorf("%s = %s, want the verdict shown", name, out)
		}
	}
}

// A doctor report's target keeps a tunnel URL's ?k= secret on the wire
// but not in any fmt verb or slog output.
func TestDoctorTargetURLNeverPrinted(t *testing.T) {
	t.Parallel()
	tg := servers.DoctorTarget{Kind: servers.DoctorTargetHTTP, Scope: servers.DoctorScopeHosted, ServerID: "srv_1",
		Label: "local", URL: "https://relay.example/tunnels/t1/mcp?k=s3cret"}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "target", tg)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "target", tg)
	printed := fmt.Sprintf("%v %+v %#v %s", tg, tg, tg, tg) + logs.String()
	if strings.Contains(printed, "s3cret") || !strings.Contains(printed, "k=REDACTED") {
		t.Errorf("printed: %s", printed)
	}
	if b, err := json.Marshal(tg); err != nil || !strings.Contains(string(b), "k=s3cret") {
		t.Errorf("JSON %s (%v) lost the wire value", b, err)
	}
}

package servers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/leaktest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// secretURLs spell a URL secret every way a caller may: ?k= (also %6B,
// %6b, K, repeated, before a fragment, in a query Go refuses), a userinfo
// password, and URLs without a scheme.
var secretURLs = []string{
	"https://relay.example/t/slug/mcp?k=SEKRIT-K1",
	"https://relay.example/t/slug/mcp?a=1&k=SEKRIT-K2",
	"https://relay.example/t/slug/mcp?%6B=SEKRIT-K3",
	"https://relay.example/t/slug/mcp?%6b=SEKRIT-K4",
	"https://relay.example/t/slug/mcp?a=1&K=SEKRIT-K5",
	"https://user:SEKRIT-PW6@relay.example/t/slug/mcp",
	"https://relay.example/t/slug/mcp?k=SEKRIT-K7&k=SEKRIT-K7b",
	"https://relay.example/t/slug/mcp?k=SEKRIT-K8#frag",
	"https://relay.example/t/slug/mcp?x=%zz&k=SEKRIT-K9",
	"https://relay.example/t/slug/mcp?k=SEKRIT-K10;a=1",
	"relay.example/t/slug/mcp?k=SEKRIT-K11",
	"/t/slug/mcp?k=SEKRIT-K12",
}

// TestServerSecretsNeverPrinted: a record's URL secret never shows in any
// verb or log, on its own, in a listing page, nested or behind a pointer.
func TestServerSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, u := range secretURLs {
		s := servers.Server{ID: "srv_1", Name: "n", URL: u, TransportType: "http"}
		leaktest.NoLeak(t, "Server "+u, s, false, "SEKRIT")
		leaktest.NoLeak(t, "Page[Server] "+u, shared.Page[servers.Server]{Items: []servers.Server{s}}, false, "SEKRIT")
		uu := u
		leaktest.NoLeak(t, "CheckOAuthResult "+u, servers.CheckOAuthResult{UseOAuth: true, ServerURL: &uu}, false, "SEKRIT")
	}
}

// TestPageLogsItemsRedacted: slog's JSON handler logs a page's items
// through their own LogValue, keeping what they show.
func TestPageLogsItemsRedacted(t *testing.T) {
	t.Parallel()
	p := shared.Page[servers.Server]{Items: []servers.Server{{ID: "srv_1", URL: secretURLs[0]}}, NextCursor: "c2"}
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("m", "page", p, "ptr", &p)
	if out := b.String(); strings.Contains(out, "SEKRIT") || !strings.Contains(out, "srv_1") || !strings.Contains(out, "c2") {
		t.Errorf("log: %s", out)
	}
}

// TestImportTokensSecretsNeverPrinted: tokens, the client secret and URL
// secrets (a userinfo password too) never show in any verb, log or JSON.
func TestImportTokensSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, u := range secretURLs {
		p := servers.ImportTokensParams{ServerURL: u, OAuthResourceURL: u, AuthorizationServerURL: u,
			ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "SEKRIT-CS"},
			Tokens:            servers.Tokens{AccessToken: "SEKRIT-AT", RefreshToken: "SEKRIT-RT", IDToken: "SEKRIT-ID", TokenType: "Bearer"}}
		leaktest.NoLeak(t, "ImportTokensParams "+u, p, true, "SEKRIT")
		leaktest.NoLeak(t, "Tokens", p.Tokens, true, "SEKRIT")
		leaktest.NoLeak(t, "ClientInformation", *p.ClientInformation, true, "SEKRIT")
	}
}

// An import's authorizationServerUrl is a URL, not a secret: it prints and
// logs (without a query, as the other URLs) beside redacted tokens, and
// goes on the wire as given.
func TestImportTokensAuthorizationServerURLShown(t *testing.T) {
	t.Parallel()
	p := servers.ImportTokensParams{ServerURL: "https://mcp.example/mcp", AuthorizationServerURL: "https://as.example/tenant",
		Tokens: servers.Tokens{AccessToken: "SEKRIT-AT"}}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("m", "params", p)
	for how, out := range map[string]string{"%v": fmt.Sprintf("%v", p), "%+v": fmt.Sprintf("%+v", p), "log": logs.String()} {
		if !strings.Contains(out, "https://as.example/tenant") || strings.Contains(out, "SEKRIT") {
			t.Errorf("%s = %s, want the authorization server URL and no token", how, out)
		}
	}
}

// TestDoctorReportSecretsNeverPrinted: a doctor report's target URL secret
// never shows in any verb or log of the report, its pointer or either
// nested (slog's JSON handler encoded a report, having no LogValue, with
// encoding/json, the URL whole); the log keeps the report's outcome and
// target. The JSON stays the wire form, secret and all.
func TestDoctorReportSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, u := range secretURLs {
		rep := servers.DoctorReport{Status: servers.DoctorReady, Connection: servers.Connection{Status: servers.ConnectionConnected},
			Checks: servers.DoctorChecks{Tools: &servers.DoctorCheck{Status: servers.CheckOK}},
			Target: &servers.DoctorTarget{Kind: servers.DoctorTargetHTTP, Scope: servers.DoctorScopeHosted, ServerID: "srv_1", URL: u}}
		leaktest.NoLeak(t, "DoctorReport "+u, rep, false, "SEKRIT")
		// The free text quoting the URL: a ?k= secret and a userinfo
		// password alike.
		said := "could not reach " + u + " (fetch failed)"
		rep = servers.DoctorReport{Status: servers.DoctorError, Probe: map[string]any{"url": u, "tried": []any{said}},
			Connection: servers.Connection{Status: servers.ConnectionError, Detail: said},
			Checks:     servers.DoctorChecks{Connection: &servers.DoctorCheck{Status: servers.CheckError, Detail: said}},
			Error:      &servers.ReportError{Code: shared.CodeServerUnreachable, Message: said, Details: map[string]any{"url": u}}}
		leaktest.NoLeak(t, "DoctorReport free text "+u, rep, false, "SEKRIT")
		leaktest.NoLeak(t, "Connection "+u, rep.Connection, false, "SEKRIT")
		leaktest.NoLeak(t, "ReportError "+u, *rep.Error, false, "SEKRIT")
		if js, err := json.Marshal(rep); err != nil || strings.Count(string(js), "SEKRIT") < 5 {
			t.Errorf("JSON = %s, %v; want the wire form, the text whole", js, err)
		}
	}
	rep := servers.DoctorReport{Status: servers.DoctorPartial, Target: &servers.DoctorTarget{ServerID: "srv_1", URL: secretURLs[0]},
		Error: &servers.ReportError{Code: shared.CodeInternal, Message: "listing failed at " + secretURLs[0]}}
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("m", "report", rep, "ptr", &rep)
	if out := b.String(); strings.Contains(out, "SEKRIT") || !strings.Contains(out, "srv_1") || !strings.Contains(out, `"status":"partial"`) ||
		!strings.Contains(out, "relay.example/t/slug/mcp") || !strings.Contains(out, string(shared.CodeInternal)) {
		t.Errorf("log: %s", out)
	}
	if js, err := json.Marshal(rep); err != nil || !strings.Contains(string(js), secretURLs[0]) {
		t.Errorf("JSON = %s, %v; want the wire form, URL whole", js, err)
	}
}

// A doctor report's connection detail and error message quoting the
// target URL are printed and logged without its userinfo password (slog
// redacted only ?k=) and without its ?k= secret (%v printed the detail as
// it came).
func TestDoctorReportFreeTextSecretsRedacted(t *testing.T) {
	t.Parallel()
	u := "https://user:SEKRIT-PW6@relay.example/t/slug/mcp?k=SEKRIT-K1"
	rep := servers.DoctorReport{Status: servers.DoctorError,
		Connection: servers.Connection{Status: "failed", Detail: "could not reach " + u},
		Error:      &servers.ReportError{Code: "SERVER_UNREACHABLE", Message: "could not reach " + u}}
	var b strings.Builder
	slog.New(slog.NewJSONHandler(&b, nil)).Info("m", "report", rep)
	if out := b.String(); strings.Contains(out, "SEKRIT") || !strings.Contains(out, "https://user:REDACTED@relay.example/t/slug/mcp?k=REDACTED") {
		t.Errorf("slog: %s", out)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
		for _, v := range []any{rep, &rep} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, "SEKRIT") || !strings.Contains(s, "could not reach https://user:REDACTED@relay.example") {
				t.Errorf("%s: %s", verb, s)
			}
		}
	}
}

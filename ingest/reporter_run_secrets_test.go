package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
)

// TestReporterRedactsRunSecretsInResultText: a replay config's tokens and
// client secret, and a host config's header values, quoted in a result's
// error text or output (where no field names them) are redacted in the
// spool, the results sent, the outcome, its error and the logs, also when
// the service quotes the body back in its error.
func TestReporterRedactsRunSecretsInResultText(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 500} {
		t.Run(fmt.Sprint(status), func(t *testing.T) {
			t.Parallel()
			var sent bytes.Buffer
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				body, _ := io.ReadAll(r.Body)
				sent.Write(body)
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(status)
				_ = json.NewEncoder(w).Encode(map[string]any{"code": "VALIDATION_ERROR", "message": "bad body " + string(body[:min(len(body), 4000)])})
			}))
			defer srv.Close()
			dir := t.TempDir()
			var logs bytes.Buffer
			lg := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
			svc, err := ingest.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_SEKRIT-APIKEY"),
				option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0), option.WithLogger(lg))
			if err != nil {
				t.Fatal(err)
			}
			r, err := ingest.NewReporter(svc, ingest.ReporterOptions{Project: "prj_1", SpoolDir: dir, Logger: lg,
				Getenv: func(string) string { return "" },
				Run: ingest.RunParams{SuiteName: "s", ExternalRunID: "ext-1",
					ServerReplayConfigs: []ingest.ServerReplayConfig{
						{ServerID: "srv_a", URL: "https://mcp.example/mcp", AccessToken: "SEKRIT-AT1", RefreshToken: "SEKRIT-RT1", ClientID: "cid", ClientSecret: "SEKRIT-CS1"},
						{ServerID: "srv_b", URL: "https://relay.example/t/s/mcp?a=1&K=SEKRIT-KUPPER", AccessToken: "SEKRIT-AT2"},
					}}})
			if err != nil {
				t.Fatal(err)
			}
			_ = r.Record(t.Context(), ingest.Result{CaseTitle: "t1", Passed: false,
				Error: "connecting with access token SEKRIT-AT1 and client secret SEKRIT-CS1 failed (refresh SEKRIT-RT1)"})
			_ = r.Record(t.Context(), ingest.Result{CaseTitle: "t2", Passed: true})
			out, cerr := r.Close(t.Context())
			// The request body carries the replay configs in clear (the API
			// takes them there); its results must not.
			if !strings.Contains(sent.String(), "connecting with access token [REDACTED]") {
				t.Errorf("sent results keep a replay token: %.600s", sent.String())
			}
			shown := map[string]string{"log": logs.String(),
				"outcome": fmt.Sprintf("%+v", out), "close err": fmt.Sprint(cerr)}
			if out != nil && out.Err != nil {
				shown["outcome err"] = fmt.Sprintf("%v %#v", out.Err, out.Err)
			}
			files, _ := filepath.Glob(filepath.Join(dir, "*"))
			if len(files) == 0 {
				t.Error("no spool file written")
			}
			for _, f := range files {
				b, _ := os.ReadFile(f)
				shown["spool"] += string(b)
			}
			for how, s := range shown {
				if i := strings.Index(s, "SEKRIT"); i >= 0 {
					t.Errorf("%s: ...%s...", how, s[max(0, i-200):min(len(s), i+60)])
				}
			}
			if !strings.Contains(shown["spool"], "connecting with access token [REDACTED]") {
				t.Errorf("spool lost the error's text: %.600s", shown["spool"])
			}
		})
	}
}

// A host config's credential header values quoted in a result's output
// are redacted by value too (the whole value and the credential after its
// scheme), and so are key-like values under other names (X-Honeycomb-Team);
// other header values, replaced wherever they occur, would mangle text
// ("application/json"), and stay.
func TestReporterRedactsHostHeaderValuesInResultText(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	svc, err := ingest.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x0000000"),
		option.WithBaseURL("http://127.0.0.1:1/api/v1"), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ingest.NewReporter(svc, ingest.ReporterOptions{Project: "prj_1", SpoolDir: dir, Getenv: func(string) string { return "" },
		Logger: slog.New(slog.DiscardHandler),
		Run: ingest.RunParams{SuiteName: "s", ExternalRunID: "ext-2",
			HostConfig: ingest.HostConfig{"temperature": 0.7, "hostContext": map[string]any{}, "clientCapabilities": map[string]any{},
				"connectionDefaults": map[string]any{"headers": map[string]any{"X-Tenant-Token": "SEKRIT-HEADER-VALUE",
					"Authorization": "Bearer SEKRIT-BEARER-VALUE", "Accept": "application/json",
					"X-Honeycomb-Team": "SEKRITkeylike0123456789"}, "requestTimeout": 10000}}}})
	if err != nil {
		t.Fatal(err)
	}
	_ = r.Record(t.Context(), ingest.Result{CaseTitle: "t1", Error: "server said: unknown key SEKRIT-HEADER-VALUE, token SEKRIT-BEARER-VALUE, team SEKRITkeylike0123456789; want application/json"})
	_, _ = r.Close(t.Context())
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	if len(files) == 0 {
		t.Fatal("no spool file written")
	}
	for _, f := range files {
		if b, _ := os.ReadFile(f); bytes.Contains(b, []byte("SEKRIT")) || bytes.Contains(b, []byte(`"kind":"chunk"`)) && !bytes.Contains(b, []byte("want application/json")) {
			t.Errorf("spool %s: %q", f, b)
		}
	}
}

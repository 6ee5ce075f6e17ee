package ingest_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
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

// A replay config's OAuth token quoted escaped in a result (a test logging
// the request URL it called: '/', '+' and '=' percent-escaped, once or
// twice, or JSON-escaped in part) is neither sent nor spooled: run secrets
// are found in any spelling, as the client's key is; they were found only
// as JSON writes them.
func TestReporterRedactsRunSecretsInAnySpelling(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const tok = "ya29/Zq9+Xw8=Vu7Ts6Rp5"
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.Run.ServerReplayConfigs = []ingest.ServerReplayConfig{{ServerID: "srv", URL: "https://mcp.example/x", AccessToken: tok}}
		o.ChunkSize = 1 // each result spooled as it is recorded
	})
	spellings := []string{
		url.QueryEscape(tok),
		url.QueryEscape(url.QueryEscape(tok)),
		strings.ToLower(url.QueryEscape(tok)),
		`ya29\u002fZq9+Xw8\u003dVu7Ts6Rp5`,
	}
	var rs []ingest.Result
	for i, sp := range spellings {
		rs = append(rs, ingest.Result{CaseTitle: fmt.Sprint("leaky", i), Error: "GET https://mcp.example/x?access_token=" + sp + " 401"})
	}
	record(t, r, rs)
	var spooled strings.Builder
	_ = filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			b, _ := os.ReadFile(p)
			spooled.Write(b)
		}
		return nil
	})
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	its, _ := f.srv.IngestedIterations(out.Run.RunID)
	if len(its) != len(spellings) {
		t.Fatalf("%d iterations sent, want %d", len(its), len(spellings))
	}
	for _, it := range its {
		if sent := fmt.Sprintf("%+v", it); strings.Contains(sent, "Vu7Ts6Rp5") || !strings.Contains(sent, "access_token=") {
			t.Errorf("the replay token is sent (or the text is lost): %.300s", sent)
		}
	}
	if got := spooled.String(); strings.Contains(got, "Vu7Ts6Rp5") || !strings.Contains(got, "access_token=") {
		t.Errorf("the replay token is spooled (or the text is lost): %.300s", got)
	}
}

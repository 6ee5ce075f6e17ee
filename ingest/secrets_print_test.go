package ingest_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/leaktest"
	"github.com/projectops/projectops-go/option"
)

func secretReplay(u string) ingest.ServerReplayConfig {
	return ingest.ServerReplayConfig{ServerID: "srv", URL: u, AccessToken: "SEKRIT-AT", RefreshToken: "SEKRIT-RT",
		ClientID: "cid", ClientSecret: "SEKRIT-CS"}
}

// TestRunSecretsNeverPrinted: replay tokens, client secrets, host config
// headers and URL secrets (?k=, ?K=, a userinfo password) never show in any
// verb or log of the types that carry them, nested or behind a pointer
// (fmt's bad-verb path prints a pointee without a Format method raw).
func TestRunSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"https://mcp.example/mcp", "https://relay.example/t/s/mcp?k=SEKRIT-K1",
		"https://relay.example/t/s/mcp?a=1&K=SEKRIT-K2", "https://u:SEKRIT-PW@mcp.example/mcp"} {
		c := secretReplay(u)
		leaktest.NoLeak(t, "ServerReplayConfig "+u, c, true, "SEKRIT")
		rp := ingest.RunParams{SuiteName: "s", ExternalRunID: "x", ServerReplayConfigs: []ingest.ServerReplayConfig{c},
			HostConfig: ingest.HostConfig{"connectionDefaults": map[string]any{"headers": map[string]any{"Authorization": "SEKRIT-HDR"}}}}
		leaktest.NoLeak(t, "RunParams "+u, rp, true, "SEKRIT")
		leaktest.NoLeak(t, "ReportParams "+u, ingest.ReportParams{RunParams: rp}, true, "SEKRIT")
		leaktest.NoLeak(t, "ReporterOptions "+u, ingest.ReporterOptions{Project: "prj_1", Run: rp}, false, "SEKRIT")
	}
}

// A ReportParams prints its results too, not only the RunParams it embeds
// (whose Format it would otherwise inherit).
func TestReportParamsPrintsResults(t *testing.T) {
	t.Parallel()
	p := ingest.ReportParams{RunParams: ingest.RunParams{SuiteName: "s"}, Results: []ingest.Result{{CaseTitle: "case-one"}}}
	if s := fmt.Sprintf("%+v", p); !strings.Contains(s, "case-one") {
		t.Errorf("%%+v = %s, lost the results", s)
	}
}

// TestUploadURLNeverPrinted: a minted upload URL carries its token.
func TestUploadURLNeverPrinted(t *testing.T) {
	t.Parallel()
	// The token in the query (a storage service's) or in the path (the
	// double's /eval-ingest-uploads/<token>).
	for _, raw := range []string{"https://upload.example/api/storage/upload?token=SEKRIT-UPLOAD",
		"https://upload.example/api/v1/eval-ingest-uploads/SEKRIT-UPLOAD"} {
		u := ingest.UploadURL{OK: true, UploadURL: raw}
		leaktest.NoLeak(t, "UploadURL", u, false, "SEKRIT")
		if s := fmt.Sprint(u); !strings.Contains(s, "upload.example") {
			t.Errorf("%%v = %s, lost the host", s)
		}
	}
}

// TestReporterNeverPrinted: a Reporter printed the way a program dumps its
// state shows none of its run's secrets.
func TestReporterNeverPrinted(t *testing.T) {
	t.Parallel()
	svc, err := ingest.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_SEKRIT-APIKEY"),
		option.WithBaseURL("http://127.0.0.1:1/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	r, err := ingest.NewReporter(svc, ingest.ReporterOptions{Project: "prj_1", NoSpool: true, Getenv: func(string) string { return "" },
		Run: ingest.RunParams{SuiteName: "s", ExternalRunID: "e", ServerReplayConfigs: []ingest.ServerReplayConfig{secretReplay("https://mcp.example/mcp")}}})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close(t.Context())
	for _, verb := range leaktest.Verbs {
		for _, v := range []any{r, []*ingest.Reporter{r}, map[string]*ingest.Reporter{"a": r}} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, "SEKRIT") {
				t.Errorf("%s of %T: %.400s", verb, v, s)
			}
		}
	}
}

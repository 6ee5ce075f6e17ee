package ingest_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
)

// StartRun and Report take the run's own secrets out of a service error
// that quotes them, as the Reporter does (a backend may quote a replay
// token where no field names it).
func TestStartRunAndReportScrubRunSecrets(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var p struct {
			ServerReplayConfigs []struct{ AccessToken string } `json:"serverReplayConfigs"`
		}
		_ = json.Unmarshal(body, &p)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(400)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": "VALIDATION_ERROR",
			"message": "upstream rejected credential " + p.ServerReplayConfigs[0].AccessToken})
	}))
	defer srv.Close()
	svc, err := ingest.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x1234567890"),
		option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	run := ingest.RunParams{SuiteName: "s", ExternalRunID: "e",
		ServerReplayConfigs: []ingest.ServerReplayConfig{{ServerID: "a", URL: "https://mcp.example/mcp", AccessToken: "SEKRIT-AT-123456"}}}
	_, err = svc.StartRun(t.Context(), "prj_1", run)
	if err == nil || strings.Contains(err.Error(), "SEKRIT") {
		t.Errorf("StartRun error: %v", err)
	}
	_, err = svc.Report(t.Context(), "prj_1", ingest.ReportParams{RunParams: run, Results: []ingest.Result{{CaseTitle: "t"}}})
	if err == nil || strings.Contains(err.Error(), "SEKRIT") {
		t.Errorf("Report error: %v", err)
	}
}

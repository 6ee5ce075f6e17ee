package projectopstest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// muteServer is an MCP URL whose server takes every request and never
// answers.
func muteServer(t *testing.T) string {
	t.Helper()
	hang := make(chan struct{})
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	}))
	t.Cleanup(hs.Close)
	t.Cleanup(func() { close(hang) }) // first: an abandoned request may hold its handler
	return hs.URL + "/mcp"
}

// diagnoseBefore POSTs {} to a saved server's validate or doctor (op) as
// a caller that gives up after guard, and returns the answer's status and
// body; it fails the test if the caller had given up first.
func diagnoseBefore(t *testing.T, srv *projectopstest.Server, path, key, op string, guard time.Duration) (int, []byte) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), guard)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, projectopstest.InProcessURL+path+op, strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s of a server that never answers initialize: no answer within %v (%v)", op, guard, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// wantDiagnosticTimeout checks validate's 504 TIMEOUT, or doctor's report
// whose error is TIMEOUT.
func wantDiagnosticTimeout(t *testing.T, op string, status int, body []byte) {
	t.Helper()
	if op == "/validate" {
		if status != http.StatusGatewayTimeout || !strings.Contains(string(body), `"code":"`+string(shared.CodeTimeout)+`"`) {
			t.Errorf("validate: %d %s, want 504 TIMEOUT", status, body)
		}
		return
	}
	var rep struct {
		Status string
		Error  struct{ Code string }
	}
	if err := json.Unmarshal(body, &rep); status != http.StatusOK || err != nil || rep.Error.Code != string(shared.CodeTimeout) {
		t.Errorf("doctor: %d %s, want 200 with a report whose error is TIMEOUT", status, body)
	}
}

// WithMCPDiagnosticTimeout bounds validate and doctor apart from
// WithMCPTimeout: with an hour for the latter, a mute server's validate
// and doctor answer while a caller who waits 5 s (the default would take
// 10) is still there.
func TestWithMCPDiagnosticTimeout(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithMCPTimeout(time.Hour),
		projectopstest.WithMCPDiagnosticTimeout(200*time.Millisecond))
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "mute", URL: muteServer(t)}))
	for _, op := range []string{"/validate", "/doctor"} {
		status, body := diagnoseBefore(t, srv, "/projects/"+ws.ProjectID+"/servers/"+id, ws.APIKey, op, 5*time.Second)
		wantDiagnosticTimeout(t, op, status, body)
	}
}

func TestWithMCPDiagnosticTimeoutRejectsNonPositive(t *testing.T) {
	t.Parallel()
	for _, d := range []time.Duration{0, -time.Second} {
		if _, err := projectopstest.NewServer(projectopstest.WithMCPDiagnosticTimeout(d)); err == nil ||
			!strings.Contains(err.Error(), "WithMCPDiagnosticTimeout") {
			t.Errorf("WithMCPDiagnosticTimeout(%v): err = %v, want one naming the option", d, err)
		}
	}
}

package projectopstest_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// muteMCP is an MCP server that takes every request, reads its body and
// never answers, counting the requests it holds.
type muteMCP struct {
	URL            string // its MCP endpoint
	seen, inFlight atomic.Int32
}

// muteServer starts a muteMCP. A request is held until its client hangs
// up; reading the body first is what lets net/http notice that (it
// watches the connection only once the body is read), so a request the
// double abandons without closing it stays counted.
func muteServer(t *testing.T) *muteMCP {
	t.Helper()
	m := &muteMCP{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		m.seen.Add(1)
		m.inFlight.Add(1)
		defer m.inFlight.Add(-1)
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	// Cutting the connections ends what a leaked request still holds, so
	// a test that found a leak can end.
	t.Cleanup(func() { hs.CloseClientConnections(); hs.Close() })
	m.URL = hs.URL + "/mcp"
	return m
}

// released fails the test unless the server was asked and holds no
// request: the double hung up on every request it gave up on. A hang-up
// reaches the server asynchronously, so it is waited for, for up to 10 s.
func (m *muteMCP) released(t *testing.T) {
	t.Helper()
	if m.seen.Load() == 0 {
		t.Fatal("the mute server was never asked")
	}
	for deadline := time.Now().Add(10 * time.Second); m.inFlight.Load() != 0 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if n := m.inFlight.Load(); n != 0 {
		t.Errorf("%d request(s) still held by the mute server 10 s after the double answered: the double did not hang up", n)
	}
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
// 10) is still there, and leave no request of theirs open at the server.
func TestWithMCPDiagnosticTimeout(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithMCPTimeout(time.Hour),
		projectopstest.WithMCPDiagnosticTimeout(200*time.Millisecond))
	ws := srv.Default()
	mute := muteServer(t)
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "mute", URL: mute.URL}))
	for _, op := range []string{"/validate", "/doctor"} {
		status, body := diagnoseBefore(t, srv, "/projects/"+ws.ProjectID+"/servers/"+id, ws.APIKey, op, 5*time.Second)
		wantDiagnosticTimeout(t, op, status, body)
		mute.released(t)
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

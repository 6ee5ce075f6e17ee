//go:build integration

package projectopstest_test

import (
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// By default validate and doctor give up connecting after 10 s
// (DefaultMCPDiagnosticTimeout), as the service's do: routes/v1/servers.ts
// passes WEB_CONNECT_TIMEOUT_MS (server/config.ts: 10_000) to validate's
// runV1ServerOp and to runHostedDoctor, not the 30 s WEB_CALL_TIMEOUT_MS
// of the other operations. A server that never answers initialize gets
// its TIMEOUT while a caller who waits 25 s is still there (the double
// waited DefaultMCPTimeout, 30 s). It takes 10 s, hence the tag.
func TestDiagnosticTimeoutDefault(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit) // default MCP timeouts, as a caller of the double gets
	ws := srv.Default()
	for _, op := range []string{"/validate", "/doctor"} {
		t.Run(op[1:], func(t *testing.T) {
			t.Parallel()
			mute := muteServer(t)
			id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "mute-" + op[1:], URL: mute.URL}))
			status, body := diagnoseBefore(t, srv, "/projects/"+ws.ProjectID+"/servers/"+id, ws.APIKey, op, 25*time.Second)
			wantDiagnosticTimeout(t, op, status, body)
			mute.released(t)
		})
	}
}

//go:build integration

package projectopstest_test

import (
	"testing"
	"time"
)

// By default validate and doctor give up connecting after 10 s
// (DefaultMCPDiagnosticTimeout), as the service's do: routes/v1/servers.ts
// passes WEB_CONNECT_TIMEOUT_MS (server/config.ts: 10_000) to validate's
// runV1ServerOp and to runHostedDoctor, not the 30 s WEB_CALL_TIMEOUT_MS
// of the other operations. A stdio server that never answers initialize
// gets its TIMEOUT while a caller who waits 25 s is still there (the
// double waited DefaultMCPTimeout, 30 s). It takes 10 s, hence the tag.
func TestDiagnosticTimeoutDefault(t *testing.T) {
	t.Parallel()
	node, _ := nodeSDK(t)
	mute := writeScript(t, `process.stdin.resume(); setInterval(() => {}, 1000);`)
	_, srv, path := stdioWorld(t, node, []string{mute}) // default MCP timeouts, as a caller of the double gets
	key := srv.Default().APIKey
	for _, op := range []string{"/validate", "/doctor"} {
		t.Run(op[1:], func(t *testing.T) {
			t.Parallel()
			status, body := diagnoseBefore(t, srv, path, key, op, 25*time.Second)
			wantDiagnosticTimeout(t, op, status, body)
		})
	}
}

package projectopstest_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// A server that takes the connection and never answers initialize is a
// 504 TIMEOUT once WithMCPTimeout has passed, not seconds later: go-sdk's
// error path waited on it (a session DELETE for up to 5 s) after the
// deadline. The bound is the fault's 5 s, so a slow machine cannot reach
// it. No request of the double's is left open at the server.
func TestConnectTimeoutIsTheTimeout(t *testing.T) {
	t.Parallel()
	mute := muteServer(t)
	f := sdktest.Setup(t, projectopstest.WithMCPTimeout(500*time.Millisecond))
	id := sdktest.Must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "mute", URL: mute.URL}))
	start := time.Now()
	st, body := f.Raw(t, http.MethodPost, "/projects/"+f.WS.ProjectID+"/servers/"+id+"/validate", f.WS.APIKey, "{}")
	if took := time.Since(start); st != http.StatusGatewayTimeout || body.Code != "TIMEOUT" || took >= 5*time.Second {
		t.Errorf("validate of a mute server: %d %s after %v, want 504 TIMEOUT after about 500ms", st, body.Code, took)
	}
	mute.released(t)
}

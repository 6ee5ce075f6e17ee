package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// The doctor report carries the service's target block: kind "http", scope
// "hosted", the projectId and serverId of the path, label = the body's
// serverName or else the serverId, and the server's url.
//
// Source: routes/v1/servers.ts doctor -> routes/web/servers.ts
// runHostedDoctor (target: {kind: "http", scope: "hosted", projectId,
// serverId, label: serverName ?? serverId, url}); sdk/src/server-doctor-core.ts
// ServerDoctorResult.target (always present); routes/v1/__tests__/routes.test.ts
// "runs the doctor workflow" sends {serverName: "Example"}.
func TestDoctorReportNamesTarget(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "paged", MCPServer: pagedServer()}))
	tg := inproc(srv)
	for body, label := range map[string]string{`{"serverName":"Example"}`: "Example", `{}`: id} {
		r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/servers/"+id+"/doctor", ws.APIKey, body)
		var rep struct {
			Target map[string]any `json:"target"`
		}
		r.decode(t, &rep)
		tgt := rep.Target
		if tgt == nil || tgt["kind"] != "http" || tgt["scope"] != "hosted" || tgt["projectId"] != ws.ProjectID ||
			tgt["serverId"] != id || tgt["label"] != label || tgt["url"] == nil {
			t.Errorf("doctor %s: target = %v, want {kind: http, scope: hosted, projectId: %s, serverId: %s, label: %s, url}",
				body, tgt, ws.ProjectID, id, label)
		}
	}
}

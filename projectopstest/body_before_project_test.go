package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// On these routes the service checks the request body before anything
// looks the project up (its project check happens in the backend call that
// follows), so a bad body under a project id that does not exist is a 400,
// not a 404.
func TestBodyCheckedBeforeProjectLookup(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	const p = "/projects/prj_does_not_exist"
	for _, tt := range []struct {
		name, method, path string
		body               any
	}{
		{"tunnel create without name", "POST", p + "/tunnels", map[string]any{}},
		{"environment create without dockerfile", "POST", p + "/computer-environments", map[string]any{"name": "n"}},
		{"environment patch with nothing to change", "PATCH", p + "/computer-environments/env_1", map[string]any{}},
		{"environment delete with a body field", "DELETE", p + "/computer-environments/env_1", map[string]any{"force": true}},
		{"environment build with a body field", "POST", p + "/computer-environments/env_1/build", map[string]any{"x": 1}},
		{"computer reset with a body field", "POST", p + "/computer/reset", map[string]any{"x": 1}},
	} {
		r := tg.call(t, tt.method, tt.path, ws.APIKey, tt.body)
		if r.status != 400 {
			t.Errorf("%s: %s %s: status %d, want 400 VALIDATION_ERROR (%s)", tt.name, tt.method, tt.path, r.status, r.body)
			continue
		}
		r.wantError(t, shared.CodeValidation)
	}
}

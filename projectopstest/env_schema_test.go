package projectopstest_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// specWins patches the reference where the specification speaks: the build
// provider is "provider_a" (a neutral stand-in for the provider the
// reference names) and its provider-specific id is providerBuildId.
func specWins(t *testing.T, doc openAPI) {
	t.Helper()
	build := doc["components"].(map[string]any)["schemas"].(map[string]any)["ComputerEnvironmentBuild"].(map[string]any)
	props := build["properties"].(map[string]any)
	props["provider"] = map[string]any{"type": "string", "enum": []any{"provider_a", "provider_b"}}
	props["providerBuildId"] = props["e2bBuildId"]
	delete(props, "e2bBuildId")
}

// TestEnvironmentResponsesMatchReference holds every environment route's
// answers, success and error, to the reference schemas.
func TestEnvironmentResponsesMatchReference(t *testing.T) {
	t.Parallel()
	doc := loadOpenAPI(t)
	specWins(t, doc)
	seed := projectopstest.DemoSeed()
	seed.Environments = []projectopstest.EnvironmentSpec{
		{ID: "env_ready", ProjectID: "prj_demo", OwnerUserID: "usr_owner", Name: "ready", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN true\n", Built: true},
		{ID: "env_failed", ProjectID: "prj_demo", OwnerUserID: "usr_owner", Name: "failed", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN exit 1\n", Built: true},
		{ID: "env_draft", ProjectID: "prj_demo", OwnerUserID: "usr_owner", Name: "draft", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"},
		{ID: "env_gone", ProjectID: "prj_demo", OwnerUserID: "usr_owner", Name: "gone", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"},
	}
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithSeed(seed))
	tg := inproc(srv)
	owner, member := projectopstest.DemoOwnerKey, projectopstest.DemoMemberKey
	const envs = "/projects/{projectId}/computer-environments"
	const one = envs + "/{environmentId}"
	base := "/projects/prj_demo/computer-environments"
	tests := []struct {
		method, path, specPath, key string
		body                        any
		status                      int
	}{
		{"GET", base, envs, owner, nil, 200},
		{"GET", base + "?limit=1", envs, owner, nil, 200},
		{"GET", base + "?limit=0", envs, owner, nil, 200}, // clamped, as the service (which reads no limit here) never refuses it
		{"GET", "/projects/prj_nope/computer-environments", envs, owner, nil, 404},
		{"POST", base, envs, owner, map[string]any{"name": "n", "dockerfile": "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41"}, 201},
		{"POST", base, envs, owner, map[string]any{"name": "n"}, 400},
		{"POST", base, envs, owner, map[string]any{"name": "n", "dockerfile": "FROM alpine:3.20\n"}, 400}, // refused when saved
		{"GET", base + "/env_ready", one, owner, nil, 200},
		{"GET", base + "/env_failed", one, owner, nil, 200},
		{"GET", base + "/env_draft", one, owner, nil, 200},
		{"GET", base + "/env_draft", one, member, nil, 404},
		{"PATCH", base + "/env_draft", one, owner, map[string]any{"name": "d2"}, 200},
		{"PATCH", base + "/env_draft", one, owner, map[string]any{}, 400},
		{"PATCH", base + "/env_draft", one, owner, map[string]any{"dockerfile": "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nCOPY a b\n"}, 400},
		{"GET", base + "/env_ready/builds", one + "/builds", owner, nil, 200},
		{"POST", base + "/env_draft/build", one + "/build", owner, nil, 202},
		{"POST", base + "/env_draft/build", one + "/build", owner, map[string]any{"x": 1}, 400},
		{"POST", base + "/env_ready/use", one + "/use", owner, nil, 200},
		{"POST", base + "/env_failed/use", one + "/use", owner, nil, 400}, // no ready build: the service's VALIDATION_ERROR
		{"POST", "/projects/prj_demo/computer/reset", "/projects/{projectId}/computer/reset", owner, nil, 200},
		{"POST", base + "/env_ready/promote", one + "/promote", owner, nil, 200},
		{"POST", base + "/env_ready/promote", one + "/promote", member, nil, 404}, // the admin gate reads as NOT_FOUND, as the service answers
		{"DELETE", base + "/env_gone", one, owner, nil, 200},
		{"DELETE", base + "/env_gone", one, owner, nil, 404},
	}
	for _, tt := range tests {
		r := tg.call(t, tt.method, tt.path, tt.key, tt.body)
		if r.status != tt.status {
			t.Errorf("%s %s: status %d, want %d (%s)", tt.method, tt.path, r.status, tt.status, r.body)
			continue
		}
		var v any
		if err := json.Unmarshal(r.body, &v); err != nil {
			t.Errorf("%s %s: %v", tt.method, tt.path, err)
			continue
		}
		for _, e := range doc.check(doc.responseSchema(t, tt.specPath, tt.method, tt.status), v, "body") {
			t.Errorf("%s %s %d: %s", tt.method, tt.path, tt.status, e)
		}
	}
	srv.Wait()
}

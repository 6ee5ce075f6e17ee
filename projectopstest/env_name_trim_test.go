package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// The service reads a computer environment's name as its request schema
// trims strings: JavaScript's String.prototype.trim, which removes U+FEFF
// and keeps U+0085 (NEL), unlike Go's unicode.IsSpace on both.
func TestEnvironmentNameTrimmedAsJavaScript(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	base := "/projects/" + ws.ProjectID + "/computer-environments"
	const df = "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"

	// A name of only U+FEFF trims to nothing: refused.
	r := tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "\ufeff", "dockerfile": df})
	if r.status != 400 {
		t.Errorf("create with name U+FEFF: status %d, want 400 (%s)", r.status, r.body)
	}

	// U+FEFF around a name is trimmed away before the name is stored.
	r = tg.call(t, "POST", base, ws.APIKey, map[string]any{"name": "\ufeffdev\ufeff", "dockerfile": df})
	var env struct {
		ID   string `json:"id"`
		Name string `json:"name"`
	}
	r.decode(t, &env)
	if env.Name != "dev" {
		t.Errorf("create with name %q: stored %q, want %q", "\ufeffdev\ufeff", env.Name, "dev")
	}

	// U+0085 is not whitespace to JavaScript's trim: a name of it is kept.
	r = tg.call(t, "PATCH", base+"/"+env.ID, ws.APIKey, map[string]any{"name": "\u0085"})
	if r.status != 200 {
		t.Fatalf("patch with name U+0085: status %d, want 200 (%s)", r.status, r.body)
	}
	r.decode(t, &env)
	if env.Name != "\u0085" {
		t.Errorf("patch with name U+0085: stored %q, want %q", env.Name, "\u0085")
	}
}

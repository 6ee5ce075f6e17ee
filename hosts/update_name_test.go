package hosts_test

import (
	"testing"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/sdktest"
)

// PATCH trims a host name and refuses a blank one, as create does.
func TestHostPatchTrimsName(t *testing.T) {
	t.Parallel()
	f := sdktest.Setup(t)
	ctx := t.Context()
	p := f.WS.ProjectID
	h, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "  created  ", Template: hosts.TemplateClaude})
	if err != nil {
		t.Fatal(err)
	}
	if h.Name != "created" {
		t.Fatalf("create did not trim: %q", h.Name)
	}
	u, err := f.C.Hosts.Update(ctx, p, h.ID, hosts.UpdateParams{Name: "   "})
	if err == nil {
		t.Errorf("PATCH name %q accepted; host name is now %q, want 400 VALIDATION_ERROR field name", "   ", u.Name)
	} else {
		sdktest.WantField(t, err, "name", true)
	}
	u, err = f.C.Hosts.Update(ctx, p, h.ID, hosts.UpdateParams{Name: "  padded  "})
	if err != nil {
		t.Fatal(err)
	}
	if u.Name != "padded" {
		t.Errorf("PATCH name stored untrimmed: %q, want %q (as POST does)", u.Name, "padded")
	}
}

// An empty (len 0, non-nil) Config in UpdateParams is left out, as the
// zero Config is: a rename alone goes through.
func TestHostUpdateEmptyConfigIsAbsent(t *testing.T) {
	t.Parallel()
	f := sdktest.Setup(t)
	ctx := t.Context()
	p := f.WS.ProjectID
	h, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "h", Template: hosts.TemplateClaude})
	if err != nil {
		t.Fatal(err)
	}
	u, err := f.C.Hosts.Update(ctx, p, h.ID, hosts.UpdateParams{Name: "renamed", Config: hosts.Config{}})
	if err != nil {
		t.Fatalf("rename with an empty Config (len 0): %v; want config left unchanged", err)
	}
	if u.Name != "renamed" || !u.Config.Equal(h.Config) {
		t.Errorf("got %q", u.Name)
	}
}

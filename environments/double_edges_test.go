package environments_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestLogPreviewCutAtLineBoundary(t *testing.T) {
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	name := strings.Repeat("a", 5000)
	df := "FROM " + name + "@" + pinned + "\nRUN true\n"
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: df})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.C.Environments.Build(ctx, p, env.ID); err != nil {
		t.Fatal(err)
	}
	f.gate.step(t) // step 0: queued -> building
	f.gate.step(t) // step 1: FROM runs (logs the resolve line)
	f.gate.next(t) // held before RUN
	pg, err := f.C.Environments.ListBuilds(ctx, p, env.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	prev := pg.Items[0].LogPreview
	if len(prev) > projectopstest.BuildLogPreviewCap || !utf8.ValidString(prev) {
		t.Fatalf("preview of %d bytes over the cap or invalid", len(prev))
	}
	lines := strings.Split(prev, "\n")
	if len(lines) > 1 && strings.Contains(lines[0], "truncated") {
		lines = lines[1:]
	}
	first := lines[0]
	if !strings.HasPrefix(first, "#") {
		t.Errorf("preview does not start at a line boundary: first line after the marker is %q…", first[:40])
	}
	f.gate.pass(t)
}

func TestUnknownEnvironmentBuildsIsNotFound(t *testing.T) {
	f := setup(t)
	base := "/projects/" + f.WS.ProjectID + "/computer-environments/env_missing/builds"
	for _, q := range []string{"", "?limit=0", "?limit=1000", "?cursor=bogus"} {
		if st, _ := f.raw(t, http.MethodGet, base+q, f.WS.APIKey, ""); st != http.StatusNotFound {
			t.Errorf("GET …/env_missing/builds%s = %d, want 404", q, st)
		}
	}
}

// A failure message too long for the preview is cut in the log's ERROR
// line (the build's error keeps it whole), so the preview still says why
// the build failed.
func TestLogPreviewKeepsLongFailure(t *testing.T) {
	long := strings.Repeat("why ", 3000)
	f := setup(t, projectopstest.WithBuildHook(func(ctx context.Context, step projectopstest.BuildStep) error {
		if step.Index == 1 {
			return errTest(long)
		}
		return nil
	}))
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: "FROM alpine@" + pinned + "\nRUN true\n"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, st.BuildID)
	if b == nil || b.Status != environments.BuildFailed {
		t.Fatalf("build %+v, err %v", b, err)
	}
	if !strings.Contains(b.LogPreview, "ERROR: provider error: why why") || !strings.HasSuffix(b.LogPreview, "build failed") ||
		len(b.LogPreview) > projectopstest.BuildLogPreviewCap {
		t.Errorf("preview (%d bytes) lost the failure: %q", len(b.LogPreview), b.LogPreview)
	}
	if !strings.Contains(b.Error, long) {
		t.Errorf("the build's error is not whole: %d bytes", len(b.Error))
	}
}

type errTest string

func (e errTest) Error() string { return string(e) }

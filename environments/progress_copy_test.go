package environments_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/sdktest"
)

// The build WithProgress is given is a copy: what the callback does to it
// (its digest list included) changes nothing WaitForBuild returns.
func TestWaitForBuildProgressGetsACopy(t *testing.T) {
	t.Parallel()
	f := sdktest.Setup(t)
	ctx := t.Context()
	p := f.WS.ProjectID
	e, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: "FROM alpine@" + pinned + "\n"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := f.C.Environments.Build(ctx, p, e.ID)
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.C.Environments.WaitForBuild(ctx, p, e.ID, b.BuildID, environments.WithPollInterval(time.Millisecond, 5*time.Millisecond), environments.WithProgress(func(b *environments.Build) {
		for i := range b.BaseImageDigests {
			b.BaseImageDigests[i] = "MUTATED"
		}
	}))
	if err != nil {
		t.Fatal(err)
	}
	if slices.Contains(got.BaseImageDigests, "MUTATED") {
		t.Errorf("progress callback changed the returned build: BaseImageDigests = %v", got.BaseImageDigests)
	}
	if len(got.BaseImageDigests) == 0 || !strings.HasPrefix(got.BaseImageDigests[0], "sha256:") {
		t.Errorf("digests = %v", got.BaseImageDigests)
	}
}

package environments_test

import (
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

// An update while a build runs does not change what that build builds: it
// finishes from the Dockerfile it was started with, and the new Dockerfile
// reaches computers only through a rebuild.
func TestUpdateWhileBuilding(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	first, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.gate.step(t)
	f.gate.next(t) // building, held before FROM
	const df2 = "FROM alpine:3.20@sha256:d3dfed77bb64d7d29a735783a2a90e9a1979dacbe1b8dead996d9ebc78544336\nRUN apk add git\n"
	edited, err := f.C.Environments.Update(ctx, p, env.ID, environments.UpdateParams{Dockerfile: df2})
	if err != nil {
		t.Fatal(err)
	}
	if edited.CurrentBuild == nil || edited.CurrentBuild.Status != environments.BuildBuilding {
		t.Fatalf("current build while building = %+v", edited.CurrentBuild)
	}
	f.gate.open()
	old, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, first.BuildID, fast)
	if err != nil {
		t.Fatal(err)
	}
	if old.BaseImageDigests[0] != pinned {
		t.Fatalf("in-flight build switched Dockerfile: %v", old.BaseImageDigests)
	}
	got, _ := f.C.Environments.Get(ctx, p, env.ID)
	if got.ContentHash != hashOf(df2) || got.Dockerfile != df2 {
		t.Fatalf("environment after update = %+v", got)
	}
	if _, err := f.C.Environments.Boot(ctx, p, env.ID); err != nil {
		t.Fatal(err)
	}
	f.Srv.Wait()
	if c, _ := f.Srv.Computer(p, f.WS.UserID); c.BuildID != first.BuildID || c.BaseImageDigests[0] != pinned {
		t.Fatalf("booted %+v before the rebuild", c)
	}
	second, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	if second.Reused {
		t.Error("a build of a changed Dockerfile reported reuse")
	}
	nb, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, second.BuildID, fast)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.C.Environments.Boot(ctx, p, env.ID); err != nil {
		t.Fatal(err)
	}
	f.Srv.Wait()
	if c, _ := f.Srv.Computer(p, f.WS.UserID); c.BuildID != second.BuildID || c.BaseImageDigests[0] != nb.BaseImageDigests[0] ||
		nb.BaseImageDigests[0] == pinned {
		t.Fatalf("after rebuild booted %+v (build %+v)", c, nb)
	}
}

// Deleting an environment stops its in-flight builds at once (a held build
// step sees its context end), and computers booted from it fall back to the
// base image.
func TestDeleteWhileBuilding(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	id, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID,
		Name: "e", Dockerfile: dockerfile, Built: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.C.Environments.Boot(ctx, p, id); err != nil {
		t.Fatal(err)
	}
	started, err := f.C.Environments.Build(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	f.gate.step(t)
	f.gate.next(t) // held mid-build; never released
	waitErr := make(chan error, 1)
	go func() {
		_, err := f.C.Environments.WaitForBuild(ctx, p, id, started.BuildID, fast)
		waitErr <- err
	}()
	if _, err := f.C.Environments.Delete(ctx, p, id); err != nil {
		t.Fatal(err)
	}
	f.Srv.Wait() // returns only because the held step's context ended
	wantError(t, <-waitErr, projectops.CodeNotFound)
	_, err = f.C.Environments.ListBuilds(ctx, p, id, nil)
	wantError(t, err, projectops.CodeNotFound)
	c, _ := f.Srv.Computer(p, f.WS.UserID)
	if c.Image() != projectopstest.BaseImage || c.EnvironmentID != "" || c.BaseImageDigests != nil {
		t.Errorf("computer after delete = %+v", c)
	}
	// The same id is gone for every operation.
	for op, err := range everyOp(ctx, f.C, p, id) {
		if op == "get" || op == "build" || op == "boot" || op == "share" || op == "update" {
			wantError(t, err, projectops.CodeNotFound)
		}
	}
}

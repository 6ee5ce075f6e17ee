package environments_test

import (
	"errors"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestBootNeedsAReadyBuild(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	wantNotReady := func(latest string) {
		t.Helper()
		_, err := f.C.Environments.Boot(ctx, p, env.ID)
		e := wantError(t, err, projectops.CodeValidation)
		// The service's router answers the backend's refusal with 400
		// VALIDATION_ERROR, a message and no details.reason.
		if e.StatusCode != 400 || !strings.Contains(e.Message, "no ready build (latest: "+latest+")") || e.Details != nil {
			t.Fatalf("Boot = %v (details %v), want no ready build with latest %s", err, e.Details, latest)
		}
	}
	wantNotReady("none")
	started, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	f.gate.next(t)
	wantNotReady("queued")
	f.gate.pass(t)
	f.gate.next(t)
	wantNotReady("building")
	f.gate.open()
	if _, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, started.BuildID, fast); err != nil {
		t.Fatal(err)
	}
	if _, ok := f.Srv.Computer(p, f.WS.UserID); ok {
		t.Fatal("refused boots made a computer")
	}

	// A failed rebuild does not unpin the ready image: boot uses the newest
	// ready build.
	if _, err := f.C.Environments.Update(ctx, p, env.ID, environments.UpdateParams{Dockerfile: "FROM alpine@" + pinned + "\nRUN exit 1\n"}); err != nil {
		t.Fatal(err)
	}
	bad, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, bad.BuildID, fast); !errors.Is(err, environments.ErrBuildFailed) {
		t.Fatal(err)
	}
	att, err := f.C.Environments.Boot(ctx, p, env.ID)
	if err != nil {
		t.Fatalf("Boot with an older ready build: %v", err)
	}
	f.Srv.Wait()
	if c, _ := f.Srv.Computer(p, f.WS.UserID); c.BuildID != started.BuildID || c.ID != att.ComputerID {
		t.Errorf("booted %+v, want build %s", c, started.BuildID)
	}

	// Only failed builds: not ready.
	only, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "f", Dockerfile: "FROM alpine@" + pinned + "\nRUN exit 2\n"})
	if err != nil {
		t.Fatal(err)
	}
	fb, err := f.C.Environments.Build(ctx, p, only.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.C.Environments.WaitForBuild(ctx, p, only.ID, fb.BuildID, fast)
	_, err = f.C.Environments.Boot(ctx, p, only.ID)
	if e := wantError(t, err, projectops.CodeValidation); !strings.Contains(e.Message, "(latest: failed)") {
		t.Errorf("message = %q", e.Message)
	}
}

func TestBootProviderMismatch(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	id, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID,
		Name: "e", Dockerfile: dockerfile, Built: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Srv.SetComputerProvider(p, f.WS.UserID, "stub"); err != nil {
		t.Fatal(err)
	}
	if err := f.Srv.InstallOnComputer(p, f.WS.UserID, "keep-me"); err != nil {
		t.Fatal(err)
	}
	_, err = f.C.Environments.Boot(t.Context(), p, id)
	e := wantError(t, err, projectops.CodeValidation)
	if e.StatusCode != 400 || !strings.Contains(e.Message, "provider "+environments.ProviderA+", not your computer's (stub)") || e.Details != nil {
		t.Fatalf("Boot = %v (details %v), want the provider mismatch in the message alone", err, e.Details)
	}
	c, _ := f.Srv.Computer(p, f.WS.UserID)
	if c.Provisions != 0 || len(c.Installed) != 1 || c.EnvironmentID != "" {
		t.Errorf("a refused boot touched the computer: %+v", c)
	}
	// Another user's computer is on the deployment's provider and boots.
	_, member := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	if _, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{}); err == nil {
		t.Error("AddEnvironment accepted an empty spec")
	}
	if _, err := f.C.Environments.Share(t.Context(), p, id); err != nil {
		t.Fatal(err)
	}
	if _, err := member.Environments.Boot(t.Context(), p, id); err != nil {
		t.Errorf("member Boot: %v", err)
	}
}

func TestResetWithoutBootUsesBaseImage(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	if err := f.Srv.InstallOnComputer(p, f.WS.UserID, "a", "b"); err != nil {
		t.Fatal(err)
	}
	if _, err := f.C.Environments.Reset(t.Context(), p); err != nil {
		t.Fatal(err)
	}
	f.Srv.Wait()
	c, _ := f.Srv.Computer(p, f.WS.UserID)
	if c.Image() != projectopstest.BaseImage || len(c.Installed) != 0 || c.Provisions != 1 ||
		c.Status != projectopstest.ComputerRunning {
		t.Errorf("computer = %+v", c)
	}
	_, err := f.C.Environments.Reset(t.Context(), "prj_nope")
	wantError(t, err, projectops.CodeNotFound)
	if err := f.Srv.InstallOnComputer(p, "usr_nope"); err == nil {
		t.Error("InstallOnComputer accepted an unknown user")
	}
}

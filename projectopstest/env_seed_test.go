package projectopstest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestSeedEnvironments(t *testing.T) {
	t.Parallel()
	seed, err := projectopstest.ParseSeed([]byte(`{
		"organizations": [{"id": "org_a", "name": "A"}],
		"users": [{"id": "usr_a", "organizationId": "org_a", "role": "owner"}],
		"projects": [{"id": "prj_a", "organizationId": "org_a", "name": "P"}],
		"apiKeys": [{"userId": "usr_a", "secret": "sk_seed_env_0000000000"}],
		"environments": [
			{"id": "env_py", "projectId": "prj_a", "ownerUserId": "usr_a", "name": "python",
			 "dockerfile": "FROM python:3.13-slim@sha256:cf1b6e9cc15cc669d1c096bf5918d3acfa4808bfa16bfd5176ccae1864d93e2d\nRUN pip install httpx\n", "shared": true, "built": true},
			{"projectId": "prj_a", "ownerUserId": "usr_a", "name": "draft", "dockerfile": "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"}
		]}`))
	if err != nil {
		t.Fatal(err)
	}
	srv := projectopstest.NewTestServer(t, projectopstest.WithSeed(seed))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	env, err := c.Environments.Get(t.Context(), "prj_a", "env_py")
	if err != nil {
		t.Fatal(err)
	}
	if env.Sharing != environments.SharingProject || env.CurrentBuild == nil ||
		env.CurrentBuild.Status != environments.BuildReady || len(env.CurrentBuild.BaseImageDigests) != 1 {
		t.Fatalf("seeded environment = %+v (build %+v)", env, env.CurrentBuild)
	}
	page, err := c.Environments.List(t.Context(), "prj_a", nil)
	if err != nil || len(page.Items) != 2 || page.Items[1].Sharing != environments.SharingUser || page.Items[1].CurrentBuild != nil {
		t.Fatalf("list = %+v, %v", page, err)
	}

	for _, bad := range []struct{ entry, want string }{
		{`{"projectId": "prj_nope", "ownerUserId": "usr_a", "name": "x", "dockerfile": "FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}`, `project "prj_nope" not found`},
		{`{"projectId": "prj_a", "ownerUserId": "usr_nope", "name": "x", "dockerfile": "FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}`, `owner "usr_nope" cannot access`},
		{`{"projectId": "prj_a", "ownerUserId": "usr_a", "name": " ", "dockerfile": "FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}`, "name is required"},
		{`{"projectId": "prj_a", "ownerUserId": "usr_a", "name": "x"}`, "dockerfile is required"},
		// A Dockerfile the API refuses to save is refused here too.
		{`{"projectId": "prj_a", "ownerUserId": "usr_a", "name": "x", "dockerfile": " \n"}`, "invalid Dockerfile: no FROM instruction"},
		{`{"projectId": "prj_a", "ownerUserId": "usr_a", "name": "x", "dockerfile": "FROM alpine:3.20\n"}`, "invalid Dockerfile: line 1: FROM: the base image must be pinned by digest"},
		{`{"projectId": "prj_a", "ownerUserId": "usr_a", "name": "x", "dockerfile": "FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb\nCOPY a b\n"}`, "invalid Dockerfile: line 2: unsupported instruction COPY"},
	} {
		s, err := projectopstest.ParseSeed([]byte(`{"organizations": [{"id": "org_a", "name": "A"}],
			"users": [{"id": "usr_a", "organizationId": "org_a", "role": "owner"}],
			"projects": [{"id": "prj_a", "organizationId": "org_a", "name": "P"}],
			"environments": [` + bad.entry + `]}`))
		if err != nil {
			t.Fatal(err)
		}
		_, err = projectopstest.NewServer(projectopstest.WithSeed(s))
		if err == nil || !strings.Contains(err.Error(), "environments[0]") || !strings.Contains(err.Error(), bad.want) {
			t.Errorf("seed %s: err %v, want environments[0] %q", bad.entry, err, bad.want)
		}
	}
}

// A seeded environment is built at load when asked: a failing RUN gives it
// a failed build, as building it through the API would.
func TestSeedBuiltFailingRun(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	ws := srv.Default()
	id, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID, OwnerUserID: ws.UserID,
		Name: "broken", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN exit 1\n", Built: true})
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	env, err := c.Environments.Get(t.Context(), ws.ProjectID, id)
	if err != nil || env.CurrentBuild == nil || env.CurrentBuild.Status != environments.BuildFailed ||
		env.CurrentBuild.Error != "line 2: RUN exit 1: exited with code 1" {
		t.Fatalf("seeded environment = %+v (build %+v), %v", env, env.CurrentBuild, err)
	}
}

// Close stops a build held mid-step and waits for its goroutine.
func TestCloseStopsBuilds(t *testing.T) {
	t.Parallel()
	held := make(chan struct{})
	hook := func(ctx context.Context, s projectopstest.BuildStep) error {
		if s.Index == 1 {
			close(held)
			<-ctx.Done()
		}
		return ctx.Err()
	}
	srv, err := projectopstest.NewServer(projectopstest.WithBuildHook(hook))
	if err != nil {
		t.Fatal(err)
	}
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	p := srv.Default().ProjectID
	env, err := c.Environments.Create(t.Context(), p, environments.CreateParams{Name: "e", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\n"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Environments.Build(t.Context(), p, env.ID); err != nil {
		t.Fatal(err)
	}
	<-held
	done := make(chan error, 1)
	go func() { done <- srv.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not stop the held build")
	}
}

func TestEnvironmentOptionsValidate(t *testing.T) {
	t.Parallel()
	for name, opt := range map[string]projectopstest.Option{
		"empty provider": projectopstest.WithComputerProvider(""),
		"nil hook":       projectopstest.WithBuildHook(nil),
		"negative delay": projectopstest.WithBuildStepDelay(-time.Second),
	} {
		if _, err := projectopstest.NewServer(opt); err == nil {
			t.Errorf("%s: NewServer accepted it", name)
		}
	}
}

// WithBuildStepDelay paces builds on the real clock; they still finish.
func TestBuildStepDelay(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithBuildStepDelay(time.Millisecond))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	p := srv.Default().ProjectID
	env, err := c.Environments.Create(t.Context(), p, environments.CreateParams{Name: "e", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN true\n"})
	if err != nil {
		t.Fatal(err)
	}
	started, err := c.Environments.Build(t.Context(), p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	srv.Wait()
	b, err := c.Environments.WaitForBuild(t.Context(), p, env.ID, started.BuildID)
	if err != nil || b.Status != environments.BuildReady {
		t.Fatalf("build = %+v, %v", b, err)
	}
}

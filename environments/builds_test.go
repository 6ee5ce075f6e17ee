package environments_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
)

// buildOf creates an environment from dockerfile, builds it with the gate
// open, and waits for the build to end (with opts after the fast polling).
func buildOf(t *testing.T, f *fixture, dockerfile string, opts ...environments.WaitOption) (*environments.Build, error) {
	t.Helper()
	f.gate.open()
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	started, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	return f.C.Environments.WaitForBuild(ctx, p, env.ID, started.BuildID, append([]environments.WaitOption{fast}, opts...)...)
}

// TestInvalidDockerfileIsRefusedWhenSaved: the service rejects a Dockerfile
// it cannot build when it is saved ("FROM an allowlisted official base
// pinned by @sha256 digest; only FROM + RUN are supported"), at create and
// at update, with a VALIDATION_ERROR naming the field and the problem;
// nothing is saved.
func TestInvalidDockerfileIsRefusedWhenSaved(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, dockerfile, reason string }{
		{"only white space", "   \n", "no FROM instruction"},
		{"no FROM", "# nothing here\n\n", "no FROM instruction"},
		{"RUN before FROM", "RUN echo hi\nFROM alpine@" + pinned + "\n", "line 1: RUN before the first FROM"},
		{"unknown instruction", "FROM alpine@" + pinned + "\nFETCH http://x\n", "line 2: unknown instruction FETCH"},
		{"unsupported instruction", "FROM alpine@" + pinned + "\nCOPY . /app\n", "line 2: unsupported instruction COPY: only FROM and RUN are supported"},
		{"malformed line", "FROM alpine@" + pinned + "\n--> oops\n", "line 2: malformed line: it does not start with an instruction"},
		{"instruction without argument", "FROM alpine@" + pinned + "\nRUN\n", "line 2: malformed line: RUN needs an argument"},
		{"escape directive", "# escape=`\nFROM alpine@" + pinned + "\n", "line 1: parser directive escape is not supported"},
		{"syntax directive", "# syntax=docker/dockerfile:1\nFROM alpine@" + pinned + "\n", "line 1: parser directive syntax is not supported"},
		{"heredoc", "FROM alpine@" + pinned + "\nRUN <<EOF\necho hi\nEOF\n", "line 2: heredocs are not supported"},
		{"word joined by a continuation", "FROM alpine@" + pinned + "\nRUN\\\necho hi\n", "line 2: unknown instruction RUNecho"},
		{"bad image reference", "FROM Alpine!!\n", "line 1: malformed FROM: invalid image reference"},
		{"bad digest", "FROM alpine@sha256:abc\n", "line 1: malformed FROM: invalid image reference"},
		{"extra FROM words", "FROM alpine@" + pinned + " extra\n", "line 1: malformed FROM: expected FROM image"},
		{"unknown FROM flag", "FROM --pull alpine\n", "line 1: malformed FROM: unknown flag"},
		// The service's rule: an allowlisted official base pinned by digest.
		{"unpinned base", "FROM debian:bookworm-slim\nRUN true\n", "line 1: FROM: the base image must be pinned by digest"},
		{"other registry", "FROM ghcr.io/acme/base@" + pinned + "\n", "line 1: FROM: not an allowlisted official base image"},
		{"not an official image", "FROM acme/tools:1@" + pinned + "\nRUN true\n", "line 1: FROM: not an allowlisted official base image"},
	}
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "good", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		want := "invalid Dockerfile: " + tt.reason
		_, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "bad", Dockerfile: tt.dockerfile})
		if e := wantError(t, err, projectops.CodeValidation); !strings.HasPrefix(e.Message, want) || e.Details["field"] != "dockerfile" {
			t.Errorf("%s: Create = %q %v, want %q naming dockerfile", tt.name, e.Message, e.Details, want)
		}
		_, err = f.C.Environments.Update(ctx, p, env.ID, environments.UpdateParams{Name: "renamed", Dockerfile: tt.dockerfile})
		if e := wantError(t, err, projectops.CodeValidation); !strings.HasPrefix(e.Message, want) || e.Details["field"] != "dockerfile" {
			t.Errorf("%s: Update = %q %v, want %q naming dockerfile", tt.name, e.Message, e.Details, want)
		}
	}
	page, err := f.C.Environments.List(ctx, p, nil)
	if err != nil || len(page.Items) != 1 || page.Items[0].Name != "good" || page.Items[0].Dockerfile != dockerfile {
		t.Errorf("after refused creates and updates: %+v, %v", page, err)
	}
}

// TestInvalidDockerfileErrorQuotesNoLine: the refusal names the line and
// the problem, never the line's content, which may hold a token.
func TestInvalidDockerfileErrorQuotesNoLine(t *testing.T) {
	t.Parallel()
	const token = "ghp_S3cretT0kenValue0123456789"
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	for _, df := range []string{
		"FROM alpine@" + pinned + "\n--header=Authorization:" + token + "\n",
		"FROM alpine@" + pinned + "\nCOPY " + token + " /x\n",
		"FROM registry.example/" + strings.ToLower(token) + "@" + pinned + "\n",
	} {
		_, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "bad", Dockerfile: df})
		e := wantError(t, err, projectops.CodeValidation)
		for _, s := range []string{err.Error(), fmt.Sprintf("%+v", err), e.Message, fmt.Sprint(e.Details)} {
			if strings.Contains(strings.ToLower(s), "s3cret") {
				t.Errorf("the error quotes the line: %s", s)
			}
		}
	}
}

// TestInvalidDockerfileIsCheckedAfterAccess: the service checks the
// Dockerfile in its backend, after the environment lookup and the access
// checks, so a caller who may not make the change learns that (NOT_FOUND,
// FORBIDDEN) rather than what is wrong with the Dockerfile.
func TestInvalidDockerfileIsCheckedAfterAccess(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	const bad = "FROM alpine:3.20\n" // unpinned
	other, err := f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "other"})
	if err != nil {
		t.Fatal(err)
	}
	theirs, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: other, OwnerUserID: f.WS.UserID,
		Name: "theirs", Dockerfile: dockerfile, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{"env_nope", theirs} {
		_, err = f.C.Environments.Update(ctx, p, id, environments.UpdateParams{Dockerfile: bad})
		wantError(t, err, projectops.CodeNotFound)
	}

	// Another member's draft is NOT_FOUND to a member too.
	aliceID, _ := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	_, bob := f.user(t, projectopstest.RoleMember, projectopstest.RoleMember)
	draft, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: aliceID,
		Name: "alice's", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	_, err = bob.Environments.Update(ctx, p, draft, environments.UpdateParams{Dockerfile: bad})
	wantError(t, err, projectops.CodeNotFound)

	shared, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID,
		Name: "e", Dockerfile: dockerfile, Shared: true})
	if err != nil {
		t.Fatal(err)
	}
	_, guest := f.user(t, projectopstest.RoleMember, projectopstest.RoleGuest)
	_, err = guest.Environments.Update(ctx, p, shared, environments.UpdateParams{Dockerfile: bad})
	wantError(t, err, projectops.CodeForbidden)
	_, err = guest.Environments.Create(ctx, p, environments.CreateParams{Name: "x", Dockerfile: bad})
	wantError(t, err, projectops.CodeForbidden)
}

// TestContinuationAtEndOfFileBuilds: as in Docker, a line continuation
// that runs into the end of the file ends the instruction, which is saved
// and built.
func TestContinuationAtEndOfFileBuilds(t *testing.T) {
	t.Parallel()
	f := setup(t)
	b, err := buildOf(t, f, "FROM alpine@"+pinned+"\nRUN echo hi \\\n# trailing comment\n")
	if err != nil || b.Status != environments.BuildReady {
		t.Fatalf("build = %+v, %v; want ready", b, err)
	}
}

// TestBuildFailures: what only a build finds out, a failing RUN step, fails
// the build, which says why in its error and its log.
func TestBuildFailures(t *testing.T) {
	t.Parallel()
	f := setup(t)
	b, err := buildOf(t, f, "FROM alpine@"+pinned+"\nRUN true\nRUN exit 3\n")
	if !errors.Is(err, environments.ErrBuildFailed) {
		t.Fatalf("WaitForBuild err = %v, want ErrBuildFailed", err)
	}
	var be *environments.BuildError
	if !errors.As(err, &be) || be.Build != b {
		t.Fatalf("err = %#v, want *BuildError carrying the build", err)
	}
	const reason = "line 3: RUN exit 3: exited with code 3"
	if b.Status != environments.BuildFailed || b.Error != reason {
		t.Fatalf("build = %s %q, want failed %q", b.Status, b.Error, reason)
	}
	if !strings.Contains(b.LogPreview, "ERROR: "+b.Error) || !strings.HasSuffix(b.LogPreview, "build failed") {
		t.Errorf("log preview does not say why:\n%s", b.LogPreview)
	}
	if b.FinishedAt == 0 || b.StartedAt == 0 {
		t.Errorf("failed build without times: %+v", b)
	}
	if !strings.Contains(err.Error(), b.Error) {
		t.Errorf("error text %q lacks the reason", err)
	}
}

func TestBaseImageDigests(t *testing.T) {
	t.Parallel()
	f := setup(t)
	const other = "sha256:" + "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210"
	df := "FROM --platform=linux/amd64 golang:1.25@" + pinned + " AS build\nRUN go build ./...\n" +
		"FROM build\nRUN true\nFROM docker.io/library/debian@" + other + "\nRUN ls\n"
	b, err := buildOf(t, f, df)
	if err != nil {
		t.Fatal(err)
	}
	// Each base's pin, in order; a stage is not a base image.
	if len(b.BaseImageDigests) != 2 || b.BaseImageDigests[0] != pinned || b.BaseImageDigests[1] != other {
		t.Fatalf("digests = %v, want [%s %s]", b.BaseImageDigests, pinned, other)
	}
	if !strings.Contains(b.LogPreview, "resolve docker.io/library/golang:1.25@"+pinned) {
		t.Errorf("log does not show the normalized base:\n%s", b.LogPreview)
	}
}

func TestLogPreviewIsCappedTail(t *testing.T) {
	t.Parallel()
	f := setup(t)
	var df strings.Builder
	df.WriteString("FROM alpine@" + pinned + "\n")
	for i := range 300 {
		fmt.Fprintf(&df, "RUN echo step %d\n", i)
	}
	b, err := buildOf(t, f, df.String())
	if err != nil {
		t.Fatal(err)
	}
	if len(b.LogPreview) > projectopstest.BuildLogPreviewCap {
		t.Fatalf("log preview is %d bytes, cap %d", len(b.LogPreview), projectopstest.BuildLogPreviewCap)
	}
	if !strings.HasPrefix(b.LogPreview, "[earlier log lines truncated]\n#") || !strings.HasSuffix(b.LogPreview, "build ready") ||
		strings.Contains(b.LogPreview, "step 0\n") || !strings.Contains(b.LogPreview, "RUN echo step 299") {
		t.Errorf("log preview is not the marked tail:\n%s", b.LogPreview)
	}
}

// The service's log preview is "ANSI-stripped": colour codes a RUN prints
// (or names) never reach it.
func TestLogPreviewIsANSIStripped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	b, err := buildOf(t, f, "FROM alpine@"+pinned+"\nRUN echo \x1b[31mred\x1b[0m \x1b]0;title\x07done\x1bc\n")
	if err != nil {
		t.Fatal(err)
	}
	if strings.ContainsRune(b.LogPreview, '\x1b') || strings.ContainsRune(b.LogPreview, '\a') ||
		!strings.Contains(b.LogPreview, "RUN echo red done") {
		t.Errorf("log preview keeps escape sequences or lost the text: %q", b.LogPreview)
	}
}

func TestRebuildReusesAndListsNewestFirst(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i := range 3 {
		started, err := f.C.Environments.Build(ctx, p, env.ID)
		if err != nil {
			t.Fatal(err)
		}
		if started.Reused != (i > 0) {
			t.Errorf("build %d: reused = %v", i, started.Reused)
		}
		if _, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, started.BuildID, fast); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, started.BuildID)
	}
	page, err := f.C.Environments.ListBuilds(ctx, p, env.ID, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Every request made a build record of its own, reused or not
	// (api-spec.md §3), listed newest first (§4.7).
	var got []string
	for _, b := range page.Items {
		got = append(got, b.ID)
	}
	want := []string{ids[2], ids[1], ids[0]}
	if diff := cmp.Diff(want, got); diff != "" || ids[0] == ids[1] || ids[1] == ids[2] || page.NextCursor != "" {
		t.Fatalf("builds (-want +got):\n%s\nstarted %v, nextCursor %q", diff, ids, page.NextCursor)
	}
	if !strings.Contains(page.Items[0].LogPreview, "reusing cached layers") {
		t.Errorf("reused build's log:\n%s", page.Items[0].LogPreview)
	}
}

func TestProviderFailureFromHook(t *testing.T) {
	t.Parallel()
	hook := func(_ context.Context, s projectopstest.BuildStep) error {
		if s.Index == 2 {
			return errors.New("quota exceeded")
		}
		return nil
	}
	srv := projectopstest.NewTestServer(t, projectopstest.WithBuildHook(hook), projectopstest.WithComputerProvider("stub"))
	c, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	ctx, p := t.Context(), srv.Default().ProjectID
	env, err := c.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	started, err := c.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Environments.WaitForBuild(ctx, p, env.ID, started.BuildID, fast)
	if !errors.Is(err, environments.ErrBuildFailed) || b.Error != "provider error: quota exceeded" || b.Provider != "stub" {
		t.Fatalf("build = %+v, err %v", b, err)
	}
}

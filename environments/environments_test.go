package environments_test

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func ms(t time.Time) shared.Millis { return shared.Millis(t.UnixMilli()) }

func hashOf(s string) string {
	sum := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(sum[:])
}

const (
	pinned     = "sha256:" + "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	dockerfile = "FROM debian:bookworm-slim@" + pinned + "\n# tools\nRUN apt-get update && \\\n    apt-get install -y curl\n"
)

func TestEnvironmentLifecycle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID

	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "  scraper ", Dockerfile: dockerfile})
	if err != nil {
		t.Fatalf("Create: %v", err)
	}
	want := &environments.Environment{ID: env.ID, ProjectID: p, Name: "scraper", Dockerfile: dockerfile,
		ContentHash: hashOf(dockerfile), Sharing: environments.SharingUser, IsOwner: true,
		CreatedAt: ms(t0), UpdatedAt: ms(t0)}
	if diff := cmp.Diff(want, env); diff != "" {
		t.Fatalf("Create (-want +got):\n%s", diff)
	}
	got, err := f.C.Environments.Get(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Get (-want +got):\n%s", diff)
	}

	// Build: 202 with a queued build, then building, then ready.
	f.Clock.Advance(time.Minute)
	started, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatalf("Build: %v", err)
	}
	if started.ID != env.ID || started.BuildID == "" || started.Reused {
		t.Fatalf("Build = %+v", started)
	}
	step := f.gate.next(t) // held before leaving queued
	if step.BuildID != started.BuildID || step.EnvironmentID != env.ID || step.Index != 0 {
		t.Fatalf("first step = %+v", step)
	}
	b := latestBuild(t, f, env.ID)
	if b.Status != environments.BuildQueued || b.Provider != environments.ProviderA || b.StartedAt != 0 ||
		b.CreatedAt != ms(t0.Add(time.Minute)) {
		t.Fatalf("queued build = %+v", b)
	}
	f.Clock.Advance(time.Second)
	f.gate.pass(t)
	step = f.gate.next(t) // held before the first instruction
	if step.Index != 1 || step.Total != 2 || step.Instruction != "FROM debian:bookworm-slim@"+pinned {
		t.Fatalf("instruction step = %+v", step)
	}
	b = latestBuild(t, f, env.ID)
	if b.Status != environments.BuildBuilding || b.StartedAt != ms(t0.Add(time.Minute+time.Second)) ||
		b.ProviderBuildID == "" || b.FinishedAt != 0 {
		t.Fatalf("building build = %+v", b)
	}
	f.gate.pass(t)
	if s := f.gate.step(t); s.Instruction != "RUN apt-get update &&     apt-get install -y curl" {
		t.Fatalf("RUN step = %+v (continuation lines joined as Docker joins them)", s)
	}
	done, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, started.BuildID, fast)
	if err != nil {
		t.Fatalf("WaitForBuild: %v", err)
	}
	if done.Status != environments.BuildReady || len(done.BaseImageDigests) != 1 || done.BaseImageDigests[0] != pinned ||
		done.Error != "" || done.FinishedAt == 0 {
		t.Fatalf("ready build = %+v", done)
	}
	got, err = f.C.Environments.Get(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(done, got.CurrentBuild); diff != "" {
		t.Errorf("Get.CurrentBuild (-want +got):\n%s", diff)
	}

	// Boot: the computer re-provisions from the pinned image, wiping what
	// was installed.
	if err := f.Srv.InstallOnComputer(p, f.WS.UserID, "cowsay"); err != nil {
		t.Fatal(err)
	}
	att, err := f.C.Environments.Boot(ctx, p, env.ID)
	if err != nil {
		t.Fatalf("Boot: %v", err)
	}
	if att.EnvironmentID != env.ID || att.ComputerID == "" || att.Status != projectopstest.ComputerProvisioning {
		t.Fatalf("Boot = %+v", att)
	}
	f.Srv.Wait()
	comp, ok := f.Srv.Computer(p, f.WS.UserID)
	wantComp := projectopstest.ComputerState{ID: att.ComputerID, ProjectID: p, UserID: f.WS.UserID,
		Provider: environments.ProviderA, EnvironmentID: env.ID, BuildID: done.ID, BaseImageDigests: []string{pinned},
		Status: projectopstest.ComputerRunning, Provisions: 1}
	if diff := cmp.Diff(wantComp, comp); !ok || diff != "" {
		t.Fatalf("computer after boot (-want +got):\n%s", diff)
	}

	// Reset wipes mutable state back to the same image.
	if err := f.Srv.InstallOnComputer(p, f.WS.UserID, "vim", "htop"); err != nil {
		t.Fatal(err)
	}
	rs, err := f.C.Environments.Reset(ctx, p)
	if err != nil || !rs.Reset || rs.ProjectID != p {
		t.Fatalf("Reset = %+v, %v", rs, err)
	}
	f.Srv.Wait()
	comp, _ = f.Srv.Computer(p, f.WS.UserID)
	wantComp.Provisions = 2
	if diff := cmp.Diff(wantComp, comp); diff != "" {
		t.Fatalf("computer after reset (-want +got):\n%s", diff)
	}

	// Share (the default user owns the organization: project admin).
	f.Clock.Advance(time.Minute)
	shared, err := f.C.Environments.Share(ctx, p, env.ID)
	if err != nil {
		t.Fatalf("Share: %v", err)
	}
	if shared.Sharing != environments.SharingProject || shared.UpdatedAt != ms(t0.Add(2*time.Minute+time.Second)) {
		t.Fatalf("Share = %+v", shared)
	}

	// Delete: permanent, and the computer falls back to the base image.
	del, err := f.C.Environments.Delete(ctx, p, env.ID)
	if err != nil || !del.Deleted || del.ID != env.ID {
		t.Fatalf("Delete = %+v, %v", del, err)
	}
	_, err = f.C.Environments.Get(ctx, p, env.ID)
	wantError(t, err, "NOT_FOUND")
	comp, _ = f.Srv.Computer(p, f.WS.UserID)
	if comp.EnvironmentID != "" || comp.BuildID != "" || comp.Image() != projectopstest.BaseImage {
		t.Fatalf("computer after delete = %+v", comp)
	}
}

// latestBuild is the newest build of env, through the SDK.
func latestBuild(t *testing.T, f *fixture, envID string) environments.Build {
	t.Helper()
	page, err := f.C.Environments.ListBuilds(t.Context(), f.WS.ProjectID, envID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 {
		t.Fatal("no builds")
	}
	return page.Items[0]
}

func TestUpdate(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "a", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	f.Clock.Advance(time.Minute)
	renamed, err := f.C.Environments.Update(ctx, p, env.ID, environments.UpdateParams{Name: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if renamed.Name != "b" || renamed.Dockerfile != dockerfile || renamed.ContentHash != env.ContentHash ||
		renamed.UpdatedAt != ms(t0.Add(time.Minute)) || renamed.CreatedAt != ms(t0) {
		t.Fatalf("renamed = %+v", renamed)
	}
	const df2 = "FROM alpine:3.20@sha256:d3dfed77bb64d7d29a735783a2a90e9a1979dacbe1b8dead996d9ebc78544336\nRUN apk add git\n"
	edited, err := f.C.Environments.Update(ctx, p, env.ID, environments.UpdateParams{Dockerfile: df2})
	if err != nil {
		t.Fatal(err)
	}
	if edited.Name != "b" || edited.Dockerfile != df2 || edited.ContentHash != hashOf(df2) {
		t.Fatalf("edited = %+v", edited)
	}
}

// The reference bounds neither a name's nor a Dockerfile's length (only
// "non-empty after trimming"): long ones are kept whole.
func TestLongNameAndDockerfileAccepted(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	name := strings.Repeat("n", 1000)
	df := "FROM alpine@" + pinned + "\n" + strings.Repeat("RUN echo "+strings.Repeat("x", 100)+"\n", 1000) // 110 KB
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: name, Dockerfile: df})
	if err != nil {
		t.Fatal(err)
	}
	if env.Name != name || env.Dockerfile != df {
		t.Fatalf("create kept a %d-byte name and a %d-byte Dockerfile", len(env.Name), len(env.Dockerfile))
	}
	if _, err := f.C.Environments.Update(ctx, p, env.ID, environments.UpdateParams{Name: name + "2"}); err != nil {
		t.Fatal(err)
	}
}

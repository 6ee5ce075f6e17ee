package environments_test

import (
	"context"
	"errors"
	"net/http"
	"strconv"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

func TestListPagesAndIterators(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.gate.open()
	ctx, p := t.Context(), f.WS.ProjectID
	var ids []string
	for i := range 5 {
		id, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID,
			Name: "e" + strconv.Itoa(i), Dockerfile: dockerfile})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	page, err := f.C.Environments.List(ctx, p, &environments.ListParams{Limit: 2})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) != 2 || page.Items[0].ID != ids[0] || page.NextCursor == "" {
		t.Fatalf("first page = %+v", page)
	}
	// A deletion between pages neither skips nor repeats an item.
	if _, err := f.C.Environments.Delete(ctx, p, ids[1]); err != nil {
		t.Fatal(err)
	}
	next, err := f.C.Environments.List(ctx, p, &environments.ListParams{Limit: 2, Cursor: page.NextCursor})
	if err != nil {
		t.Fatal(err)
	}
	if len(next.Items) != 2 || next.Items[0].ID != ids[2] || next.Items[1].ID != ids[3] {
		t.Fatalf("second page = %+v", next)
	}
	params := &environments.ListParams{Limit: 2}
	seq := f.C.Environments.All(ctx, p, params)
	params.Limit = 1000 // the iterator copied the params
	var got []string
	for e, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, e.ID)
	}
	if want := []string{ids[0], ids[2], ids[3], ids[4]}; !equal(got, want) {
		t.Errorf("All = %v, want %v", got, want)
	}
	var listed int
	for _, r := range f.Srv.Requests() {
		if r.Route == "GET /projects/{projectId}/computer-environments" {
			listed++
		}
	}
	if listed != 2+2 {
		t.Errorf("%d list requests, want 2 single pages + 2 iterator pages", listed)
	}

	// Builds, newest first, across pages.
	var builds []string
	for range 3 {
		b, err := f.C.Environments.Build(ctx, p, ids[0])
		if err != nil {
			t.Fatal(err)
		}
		builds = append([]string{b.BuildID}, builds...)
	}
	f.Srv.Wait()
	got = nil
	for b, err := range f.C.Environments.AllBuilds(ctx, p, ids[0], &environments.ListParams{Limit: 1}) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, b.ID)
	}
	if !equal(got, builds) {
		t.Errorf("AllBuilds = %v, want %v", got, builds)
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestListQueryValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	id, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID, Name: "e", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	other, err := f.Srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: p, OwnerUserID: f.WS.UserID, Name: "o", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	f.gate.open()
	for range 2 {
		if _, err := f.C.Environments.Build(t.Context(), p, other); err != nil {
			t.Fatal(err)
		}
	}
	otherPage, err := f.C.Environments.ListBuilds(t.Context(), p, other, &environments.ListParams{Limit: 1})
	if err != nil || otherPage.NextCursor == "" {
		t.Fatalf("other builds = %+v, %v", otherPage, err)
	}
	// The service reads no limit or cursor on these listings (every item
	// in one page): nothing is refused; a limit is clamped, a cursor the
	// double did not make for this listing starts from the top.
	envs := "/projects/" + p + "/computer-environments"
	for _, path := range []string{
		envs + "?limit=0", envs + "?limit=201", envs + "?limit=x", envs + "?cursor=nope",
		envs + "/" + id + "/builds?cursor=" + otherPage.NextCursor, // another listing's cursor
	} {
		if status, field := f.raw(t, http.MethodGet, path, f.WS.APIKey, ""); status != 200 {
			t.Errorf("GET %s: %d field %q, want 200", path, status, field)
		}
	}
	if page, err := f.C.Environments.List(t.Context(), p, nil); err != nil || len(page.Items) != 2 {
		t.Errorf("list = %+v, %v", page, err)
	}
	if status, _ := f.raw(t, http.MethodGet, envs+"?limit=200", f.WS.APIKey, ""); status != 200 {
		t.Errorf("limit=200: %d", status)
	}
}

func TestCreateAndUpdateValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	path := "/projects/" + p + "/computer-environments"
	for _, tt := range []struct{ body, field string }{
		{`{"dockerfile":"FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}`, "name"},
		{`{"name":"n"}`, "dockerfile"},
		{`{"name":"   ","dockerfile":"FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"}`, "name"},
		{`{"name":"n","dockerfile":"FROM a@sha256:ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb","sharing":"project"}`, "sharing"},
		{`{"name":"n","dockerfile":5}`, "dockerfile"},
	} {
		if status, field := f.raw(t, http.MethodPost, path, f.WS.APIKey, tt.body); status != 400 || field != tt.field {
			t.Errorf("POST %.60s: %d field %q, want 400 %q", tt.body, status, field, tt.field)
		}
	}
	env, err := f.C.Environments.Create(t.Context(), p, environments.CreateParams{Name: "n", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	_, err = f.C.Environments.Update(t.Context(), p, env.ID, environments.UpdateParams{})
	if e := wantError(t, err, projectops.CodeValidation); e.Details["fields"] == nil {
		t.Errorf("empty update details = %v", e.Details)
	}
	for _, tt := range []struct{ body, field string }{
		{`{"name":""}`, "name"},
		{`{"dockerfile":""}`, "dockerfile"},
		{`{"contentHash":"x"}`, "contentHash"},
	} {
		if status, field := f.raw(t, http.MethodPatch, path+"/"+env.ID, f.WS.APIKey, tt.body); status != 400 || field != tt.field {
			t.Errorf("PATCH %s: %d field %q, want 400 %q", tt.body, status, field, tt.field)
		}
	}
	if list, _ := f.C.Environments.List(t.Context(), p, nil); len(list.Items) != 1 {
		t.Errorf("%d environments after rejected creates", len(list.Items))
	}
	_, err = f.C.Environments.Get(t.Context(), p, "")
	var e *projectops.Error
	if !errors.As(err, &e) || e.StatusCode != 0 || e.Code != projectops.CodeValidation {
		t.Errorf("Get with an empty id = %v, want a client-side VALIDATION_ERROR", err)
	}
}

func TestWaitForBuild(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	env, err := f.C.Environments.Create(ctx, p, environments.CreateParams{Name: "e", Dockerfile: dockerfile})
	if err != nil {
		t.Fatal(err)
	}
	started, err := f.C.Environments.Build(ctx, p, env.ID)
	if err != nil {
		t.Fatal(err)
	}

	// It stops as soon as its context ends, even mid-build.
	f.gate.next(t)
	cctx, cancel := context.WithCancel(ctx)
	waitErr := make(chan error, 1)
	go func() {
		_, err := f.C.Environments.WaitForBuild(cctx, p, env.ID, started.BuildID,
			environments.WithPollInterval(time.Hour, time.Hour))
		waitErr <- err
	}()
	cancel()
	select {
	case err := <-waitErr:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("WaitForBuild after cancel = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WaitForBuild kept waiting after its context ended")
	}

	// Progress reports each change as polls see it; the gate decides
	// when the build moves, so each state is seen.
	seen := make(chan environments.BuildStatus, 64)
	done := make(chan error, 1)
	go func() {
		_, err := f.C.Environments.WaitForBuild(ctx, p, env.ID, started.BuildID,
			environments.WithPollInterval(time.Millisecond, 2*time.Millisecond),
			environments.WithProgress(func(b *environments.Build) { seen <- b.Status }))
		done <- err
	}()
	next := func() environments.BuildStatus {
		select {
		case s := <-seen:
			return s
		case <-time.After(10 * time.Second):
			t.Fatal("no progress")
			return ""
		}
	}
	if s := next(); s != environments.BuildQueued {
		t.Fatalf("first progress = %s", s)
	}
	f.gate.pass(t)
	f.gate.next(t) // held before the first instruction: building
	if s := next(); s != environments.BuildBuilding {
		t.Fatalf("second progress = %s", s)
	}
	f.gate.open()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	close(seen)
	last := environments.BuildBuilding
	for s := range seen { // log lines may change while building
		if s != environments.BuildBuilding && s != environments.BuildReady {
			t.Errorf("progress after building: %s", s)
		}
		last = s
	}
	if last != environments.BuildReady {
		t.Errorf("last progress = %s, want ready", last)
	}

	_, err = f.C.Environments.WaitForBuild(ctx, p, env.ID, "bld_nope", fast)
	if !isCode(err, projectops.CodeNotFound) {
		t.Errorf("unknown build: %v", err)
	}
}

// WaitForBuild's polls take per-call request options like every other call.
func TestWaitForBuildRequestOptions(t *testing.T) {
	t.Parallel()
	var meta option.Response
	b, err := buildOf(t, setup(t), dockerfile,
		environments.WithRequestOptions(option.WithHeader("X-Request-Id", "wait-probe-1"), option.WithResponseInto(&meta)))
	if err != nil || b.Status != environments.BuildReady {
		t.Fatalf("WaitForBuild = %+v, %v", b, err)
	}
	if meta.RequestID != "wait-probe-1" {
		t.Errorf("the polls did not carry the options: last request id %q", meta.RequestID)
	}
}

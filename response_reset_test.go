package projectops_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// filledResponse is a Response a successful call filled, with the server
// and client it came from.
func filledResponse(t *testing.T) (*projectopstest.Server, *projectops.Client, option.Response) {
	srv := projectopstest.NewTestServer(t)
	client, err := srv.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	var meta option.Response
	if _, err := client.Hosts.List(t.Context(), srv.Default().ProjectID, nil, option.WithResponseInto(&meta)); err != nil {
		t.Fatal(err)
	}
	return srv, client, meta
}

// Export adds a WithResponseInto of its own after options it refuses: the
// caller's target, before it, is reset all the same, not left holding the
// previous call's metadata.
func TestExportRefusedOptionResetsTarget(t *testing.T) {
	srv, client, meta := filledResponse(t)
	_, err := client.Servers.Export(t.Context(), srv.Default().ProjectID, "srv_x",
		option.WithHeader("Authorization", "Bearer x"), option.WithResponseInto(&meta))
	if err == nil {
		t.Fatal("want a refusal")
	}
	if meta.RequestID != "" || meta.StatusCode != 0 {
		t.Errorf("after %v: meta = {Status:%d RequestID:%q}: the previous call's", err, meta.StatusCode, meta.RequestID)
	}
}

// Resume resets a WithResponseInto target that follows a refused option
// (which stops option.ForCall before it).
func TestResumeRefusedOptionResetsTarget(t *testing.T) {
	_, client, meta := filledResponse(t)
	_, err := ingest.Resume(t.Context(), client.Ingest, t.TempDir(),
		option.WithHeader("Authorization", "Bearer x"), option.WithResponseInto(&meta))
	if err == nil {
		t.Fatal("want a refusal")
	}
	if meta.RequestID != "" || meta.StatusCode != 0 {
		t.Errorf("after %v: meta = {Status:%d RequestID:%q}: the previous call's", err, meta.StatusCode, meta.RequestID)
	}
}

// Runs.Wait whose context has ended polls nothing: its error names the
// wait, as a call's names the call, and its WithResponseInto target is
// reset, not left with an earlier call's metadata.
func TestWaitNoPollResetsTarget(t *testing.T) {
	srv, client, meta := filledResponse(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := client.Evals.Runs.Wait(ctx, srv.Default().ProjectID, "run_x",
		evals.WithRequestOptions(option.WithResponseInto(&meta)))
	if err == nil {
		t.Fatal("want an error")
	}
	if want := "projectops: waiting for run run_x: context canceled"; !errors.Is(err, context.Canceled) || err.Error() != want {
		t.Errorf("Wait's error %q; want %q, matching context.Canceled", err, want)
	}
	if meta.RequestID != "" || meta.StatusCode != 0 {
		t.Errorf("after %v: meta = {Status:%d RequestID:%q}: the previous call's", err, meta.StatusCode, meta.RequestID)
	}
}

// An iterator resets its target each time it is ranged, not only when All
// is called: a second range that sends nothing (its context ended) leaves
// no metadata of the first range's, and yields an error naming the call.
func TestIteratorRerangeResets(t *testing.T) {
	srv, client, _ := filledResponse(t)
	var meta option.Response
	ctx, cancel := context.WithCancel(t.Context())
	seq := client.Hosts.All(ctx, srv.Default().ProjectID, nil, option.WithResponseInto(&meta))
	for _, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
	}
	if meta.RequestID == "" {
		t.Fatal("no meta after ranging")
	}
	cancel()
	for _, err := range seq {
		want := "projectops: GET /projects/" + srv.Default().ProjectID + "/hosts: context canceled"
		if !errors.Is(err, context.Canceled) || err.Error() != want {
			t.Errorf("second range: %v; want %q", err, want)
		}
	}
	if meta.RequestID != "" {
		t.Errorf("after a second range that sent nothing: meta.RequestID = %q (the first range's)", meta.RequestID)
	}
}

// Every WithResponseInto target among a call's options is reset as it
// begins: the last is filled, an earlier one describes nothing, not the
// call before.
func TestEveryResponseTargetReset(t *testing.T) {
	srv, client, first := filledResponse(t)
	var last option.Response
	if _, err := client.Hosts.List(t.Context(), srv.Default().ProjectID, nil,
		option.WithResponseInto(&first), option.WithResponseInto(&last)); err != nil {
		t.Fatal(err)
	}
	if first.RequestID != "" || first.StatusCode != 0 {
		t.Errorf("earlier target = {Status:%d RequestID:%q}: the previous call's", first.StatusCode, first.RequestID)
	}
	if last.StatusCode != http.StatusOK || last.RequestID == "" {
		t.Errorf("last target = {Status:%d RequestID:%q}; want this call's", last.StatusCode, last.RequestID)
	}
}

// Header semantics: client WithHeader then WithHeaderAdd; call WithHeader
// lowercase replaces; call WithHeaderDel of an absent header is harmless.
func TestHeaderSemantics(t *testing.T) {
	var got []http.Header
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		got = append(got, r.Header.Clone())
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"items":[],"nextCursor":null}`))
	}))
	defer ts.Close()
	client, err := projectops.NewClient(option.WithAPIKey("sk_test_zz"), option.WithBaseURL(ts.URL),
		option.WithHeader("X-Trace-Id", "c1"), option.WithHeaderAdd("x-trace-id", "c2"), option.WithHeader("X-Other", "o"))
	if err != nil {
		t.Fatal(err)
	}
	_, err = client.Hosts.List(t.Context(), "prj", nil, option.WithHeader("x-trace-id", "call"), option.WithHeaderDel("X-Absent"),
		option.WithHeaderDel("x-other"), option.WithHeaderAdd("X-Other", "o2"))
	if err != nil {
		t.Fatal(err)
	}
	_, _ = client.Hosts.List(t.Context(), "prj", nil)
	if v := got[0].Values("X-Trace-Id"); len(v) != 1 || v[0] != "call" {
		t.Errorf("call X-Trace-Id = %q", v)
	}
	if v := got[0].Values("X-Other"); len(v) != 1 || v[0] != "o2" {
		t.Errorf("call X-Other = %q", v)
	}
	if v := got[1].Values("X-Trace-Id"); len(v) != 2 || v[0] != "c1" || v[1] != "c2" {
		t.Errorf("client X-Trace-Id = %q", v)
	}
	if v := got[1].Values("X-Other"); len(v) != 1 || v[0] != "o" {
		t.Errorf("client X-Other after call = %q", v)
	}
	// Del of reserved header.
	if _, err := client.Hosts.List(t.Context(), "prj", nil, option.WithHeaderDel("authorization")); err == nil {
		t.Error("WithHeaderDel(authorization) accepted")
	}
	// A program's own option with a raw, non-canonical ReplaceHeader and Header key.
	own := func(c *option.Config) error {
		c.ReplaceHeader = append(c.ReplaceHeader, "x-trace-id")
		if c.Header == nil {
			c.Header = http.Header{}
		}
		c.Header["x-trace-id"] = []string{"raw"}
		return nil
	}
	got = nil
	if _, err := client.Hosts.List(t.Context(), "prj", nil, own); err != nil {
		t.Fatal(err)
	}
	if v := got[0]["X-Trace-Id"]; len(v) != 1 || v[0] != "raw" {
		t.Errorf("own option X-Trace-Id = %q; want only its raw-keyed value, canonicalized", v)
	}
	if _, err := client.Hosts.List(t.Context(), "prj", nil, func(c *option.Config) error {
		c.ReplaceHeader = append(c.ReplaceHeader, "authorization")
		return nil
	}); err == nil {
		t.Error("own ReplaceHeader authorization accepted")
	}
}

// Both waits reset their targets before anything can end them without a
// poll (a nil context, no build id), as docs/sdk.md says: an ended
// context's first poll resets them anyway, these do not poll at all.
func TestWaitsResetTargetWithoutPolling(t *testing.T) {
	var nilCtx context.Context // a nil context, the case under test
	srv, client, meta := filledResponse(t)
	_, err := client.Evals.Runs.Wait(nilCtx, srv.Default().ProjectID, "run_x",
		evals.WithRequestOptions(option.WithResponseInto(&meta)))
	if err == nil || meta.RequestID != "" {
		t.Errorf("Runs.Wait(nil ctx) = %v: meta kept the previous call's RequestID %q", err, meta.RequestID)
	}
	for _, build := range []string{"bld_x", ""} {
		srv, client, meta := filledResponse(t)
		ctx := nilCtx
		if build == "" {
			ctx = t.Context()
		}
		_, err := client.Environments.WaitForBuild(ctx, srv.Default().ProjectID, "env_x", build,
			environments.WithRequestOptions(option.WithResponseInto(&meta)))
		if err == nil || meta.RequestID != "" {
			t.Errorf("WaitForBuild(build %q) = %v: meta kept the previous call's RequestID %q", build, err, meta.RequestID)
		}
	}
}

package ingest_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
)

// Two go test invocations record with a TBRecorder into one spool
// directory, each followed by a resume, beside an empty spool file (a
// process killed right after creating it): Resume removes that file, so
// the first resume ends cleanly and the second invocation's run is its own.
func TestEmptySpoolFileDoesNotKeepTheRunID(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := t.TempDir()
	env := map[string]string{ingest.EnvSpoolDir: dir}
	getenv := func(k string) string { return env[k] }
	killed := filepath.Join(dir, "killed.1-00.spool.jsonl")
	if err := os.WriteFile(killed, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	then := time.Now().Add(-time.Hour) // a young one may be a writer's about to lock it
	if err := os.Chtimes(killed, then, then); err != nil {
		t.Fatal(err)
	}

	// go test #1
	rec1 := ingest.NewTBRecorder(ingest.TBOptions{Getenv: getenv})
	rec1.Record(&fakeTB{name: "TestOne"}, ingest.Result{Passed: true})
	_ = rec1.Close()
	if _, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil {
		t.Errorf("resume 1: %v", err)
	}

	// go test #2 (a later invocation, new results)
	rec2 := ingest.NewTBRecorder(ingest.TBOptions{Getenv: getenv})
	rec2.Record(&fakeTB{name: "TestTwo"}, ingest.Result{Passed: false, Error: "regressed"})
	_ = rec2.Close()
	if _, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil {
		t.Errorf("resume 2: %v", err)
	}

	stored := 0
	for _, r := range f.srv.IngestedRuns("") {
		stored += r.Summary.Total
	}
	if stored != 2 {
		t.Errorf("service holds %d results after two invocations, want 2 (TestTwo was dropped)", stored)
	}
}

// A resume of the directory a live reporter spools into leaves that
// reporter's file alone: every result is stored once.
func TestResumeLeavesALiveReportersSpool(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, dir := newReporter(t, f.c, func(o *ingest.ReporterOptions) { o.ChunkSize = 10 })
	rs := results("c", 60, 0)
	record(t, r, rs[:30])
	if err := r.Flush(t.Context()); err != nil {
		t.Fatal(err)
	}
	if res, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil || len(res) != 0 {
		t.Errorf("resume during the live reporter: %+v, %v", res, err)
	}
	for _, x := range rs[30:] {
		_ = r.Record(t.Context(), x)
	}
	out, err := r.Close(t.Context())
	if err != nil || out.Err != nil || out.SpoolPath != "" {
		t.Fatalf("close: %v %+v", err, out)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 || runs[0].Summary.Total != 60 {
		t.Errorf("service holds %+v; want one run of 60 results", runs)
	}
}

// An empty spool file is its writer's until it is old: one just created
// is not yet locked, and removed, its results would go to an unlinked
// file. An old one (its writer died before its first line) is removed.
func TestResumeLeavesAYoungEmptySpool(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := t.TempDir()
	young, old := filepath.Join(dir, "young.1-00.spool.jsonl"), filepath.Join(dir, "old.2-00.spool.jsonl")
	for _, p := range []string{young, old} {
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	then := time.Now().Add(-time.Hour)
	if err := os.Chtimes(old, then, then); err != nil {
		t.Fatal(err)
	}
	if res, err := ingest.Resume(t.Context(), f.c.Ingest, dir); err != nil || len(res) != 0 {
		t.Fatalf("resume = %+v, %v", res, err)
	}
	if _, err := os.Stat(young); err != nil {
		t.Errorf("a just-created spool was removed: %v", err)
	}
	if _, err := os.Stat(old); !os.IsNotExist(err) {
		t.Errorf("an old empty spool was kept: %v", err)
	}
}

package ingest_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// damagedSecret stands in for what a damaged line can hold: Resume's error
// names the line, never its content.
const damagedSecret = "sk_live_damagedlinesecret"

// damageChunk replaces the nth chunk record of the spool file at path by
// an unreadable line (its newline kept) and returns that line's number,
// from 1.
func damageChunk(t *testing.T, path string, nth int) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	n := 0
	for i, l := range lines {
		if strings.Contains(l, `"kind":"chunk"`) {
			if n++; n == nth {
				lines[i] = "{\"kind\":\"chunk\",\"seq\":3,\"results\":[{\"caseTitle\":\"" + damagedSecret + "\x00garbage\n"
				if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o600); err != nil {
					t.Fatal(err)
				}
				return i + 1
			}
		}
	}
	t.Fatalf("fewer than %d chunk records in %s", nth, path)
	return 0
}

// wantDamage asserts err holds a *SpoolDamageError for path at line, and
// says nothing of the line's content.
func wantDamage(t *testing.T, err error, path string, line, lines int) {
	t.Helper()
	var d *ingest.SpoolDamageError
	if !errors.As(err, &d) || !errors.Is(err, ingest.ErrSpoolDamaged) {
		t.Fatalf("err = %v, want a *SpoolDamageError", err)
	}
	if d.Path != path || d.Line != line || d.Lines != lines || d.RunRecord {
		t.Errorf("damage = %+v, want %s line %d, %d lines", d, path, line, lines)
	}
	if msg := err.Error(); strings.Contains(msg, damagedSecret) || strings.Contains(msg, "garbage") || !strings.Contains(msg, "kept") {
		t.Errorf("error = %q: it must name the line, not its content, and say the file is kept", msg)
	}
}

// One damaged record in the middle of a spool file (a bit flip, a disk
// error) costs that record only: Resume delivers the chunks around it,
// finalizes the run, returns a typed error naming the file and line, and
// keeps the file. A second Resume sends nothing again (the file is marked
// delivered) and reports the damage again.
func TestResumeSkipsADamagedLine(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// Every append fails: everything stays in the spool.
	f.srv.SetFault(routeAppend, projectopstest.Fault{Status: 500})
	c := f.client(t, option.WithMaxRetries(0))
	r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkSize = 10; o.Concurrency = 1 })
	rs := results("z", 50, 0)
	record(t, r, rs)
	out, _ := r.Close(t.Context())
	if out.SpoolPath == "" {
		t.Fatalf("no spool left: %+v", out)
	}
	f.srv.ClearFaults()
	line := damageChunk(t, out.SpoolPath, 3) // results z20..z29
	// A torn last line (its writer killed mid-write) is no damage.
	sp, err := os.OpenFile(out.SpoolPath, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteString(`{"kind":"ack","se`); err != nil {
		t.Fatal(err)
	}
	_ = sp.Close()

	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	wantDamage(t, err, out.SpoolPath, line, 1)
	if len(res) != 1 || res[0].Err != nil || res[0].Resent != 40 || res[0].Run == nil || res[0].Run.Status != ingest.StatusCompleted ||
		len(res[0].Damaged) != 1 || res[0].Damaged[0].Path != out.SpoolPath {
		t.Fatalf("resume = %+v", res)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	wantRows(t, f.srv, runs[0].ID, append(rs[:20:20], rs[30:]...))
	if _, err := os.Stat(out.SpoolPath); err != nil {
		t.Fatalf("the damaged spool file was not kept: %v", err)
	}

	// Again: nothing re-sent, no new run; the damage (now with the torn
	// line, ended so the acks stand on lines of their own) reported again.
	res, err = ingest.Resume(t.Context(), f.c.Ingest, dir)
	wantDamage(t, err, out.SpoolPath, line, 2)
	if len(res) != 1 || res[0].Err != nil || res[0].Resent != 0 || res[0].CompletedRunID != "" {
		t.Errorf("second resume = %+v", res)
	}
	if runs := f.srv.IngestedRuns(""); len(runs) != 1 || runs[0].Summary.Total != 40 {
		t.Errorf("runs after the second resume = %+v", runs)
	}
	if _, err := os.Stat(out.SpoolPath); err != nil {
		t.Errorf("the damaged spool file was removed: %v", err)
	}
}

// Two processes spool one run into one directory and one file is
// damaged: the other file's results and the damaged file's intact ones
// are all delivered, the healthy file is removed, the damaged one kept.
func TestResumeDamagedFileDoesNotHoldBackItsRun(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeAppend, projectopstest.Fault{Status: 500})
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 500})
	c := f.client(t, option.WithMaxRetries(0))
	dir := t.TempDir()
	var paths []string
	var all []ingest.Result
	for _, prefix := range []string{"good", "bad"} {
		r, _ := newReporter(t, c, func(o *ingest.ReporterOptions) {
			o.SpoolDir, o.ChunkSize, o.Concurrency = dir, 10, 1
			o.Run.ExternalRunID = "shared-run"
		})
		rs := results(prefix, 30, 0)
		all = append(all, rs...)
		record(t, r, rs)
		out, _ := r.Close(t.Context())
		if out.SpoolPath == "" {
			t.Fatalf("%s reporter left no spool: %+v", prefix, out)
		}
		paths = append(paths, out.SpoolPath)
	}
	f.srv.ClearFaults()
	line := damageChunk(t, paths[1], 1) // bad0..bad9
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	wantDamage(t, err, paths[1], line, 1)
	if len(res) != 1 || res[0].Err != nil || res[0].Resent != 50 {
		t.Fatalf("resume = %+v", res)
	}
	wantRows(t, f.srv, res[0].Run.RunID, append(all[:30:30], all[40:]...))
	if _, err := os.Stat(paths[0]); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the healthy spool file was kept: %v", err)
	}
	if _, err := os.Stat(paths[1]); err != nil {
		t.Errorf("the damaged spool file was removed: %v", err)
	}
}

// A damaged first line leaves the file's run unknown: nothing of it is
// sent, it is kept, and the error says so; other files go as usual.
func TestResumeDamagedRunRecord(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 500})
	c := f.client(t, option.WithMaxRetries(0))
	r, dir := newReporter(t, c, nil)
	rs := results("h", 3, 0)
	record(t, r, rs)
	if out, _ := r.Close(t.Context()); out.SpoolPath == "" {
		t.Fatalf("no spool left: %+v", out)
	}
	f.srv.ClearFaults()
	bad := filepath.Join(dir, "other"+ingest.SpoolExt)
	if err := os.WriteFile(bad, []byte("{\"kind\":\"run\",\"project\":\""+damagedSecret+"\x00\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	var d *ingest.SpoolDamageError
	if !errors.As(err, &d) || d.Path != bad || d.Line != 1 || !d.RunRecord || strings.Contains(err.Error(), damagedSecret) {
		t.Fatalf("err = %v (%+v), want the run record's damage", err, d)
	}
	if len(res) != 1 || res[0].Err != nil || len(res[0].Damaged) != 0 {
		t.Fatalf("resume = %+v", res)
	}
	wantRows(t, f.srv, res[0].Run.RunID, rs)
	if _, err := os.Stat(bad); err != nil {
		t.Errorf("the damaged file was removed: %v", err)
	}
}

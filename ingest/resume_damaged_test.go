package ingest_test

import (
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// damagedSecret stands in for what a damaged line can hold: Resume's error
// names the line, never its content.
const damagedSecret = "sk_live_damagedlinesecret"

// spooled records n results "z…" in chunks of 10, one upload at a time,
// while route fails (routeAppend: every chunk stays unsent in the spool;
// routeFinalize: all are stored but the run is left open), and returns the
// client (no retries), the spool directory, the results and the spool file,
// the faults cleared.
func spooled(t *testing.T, f *fixture, route string, n int) (*projectops.Client, string, []ingest.Result, string) {
	t.Helper()
	f.srv.SetFault(route, projectopstest.Fault{Status: 500})
	c := f.client(t, option.WithMaxRetries(0))
	r, dir := newReporter(t, c, func(o *ingest.ReporterOptions) { o.ChunkSize = 10; o.Concurrency = 1 })
	rs := results("z", n, 0)
	record(t, r, rs)
	out, _ := r.Close(t.Context())
	f.srv.ClearFaults()
	if out.SpoolPath == "" {
		t.Fatalf("no spool left: %+v", out)
	}
	return c, dir, rs, out.SpoolPath
}

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

// wantDamage asserts err holds a *SpoolDamageError for path at line, moved
// aside, and says nothing of the line's content.
func wantDamage(t *testing.T, err error, path string, line, lines int) {
	t.Helper()
	var d *ingest.SpoolDamageError
	if !errors.As(err, &d) || !errors.Is(err, ingest.ErrSpoolDamaged) {
		t.Fatalf("err = %v, want a *SpoolDamageError", err)
	}
	if d.Path != path || d.MovedTo != path+ingest.DamagedExt || d.Line != line || d.Lines != lines || d.RunRecord {
		t.Errorf("damage = %+v, want %s line %d, %d lines, moved aside", d, path, line, lines)
	}
	if msg := err.Error(); strings.Contains(msg, damagedSecret) || strings.Contains(msg, "garbage") || !strings.Contains(msg, "moved aside to "+d.MovedTo) {
		t.Errorf("error = %q: it must name the line, not its content, and say where the file is kept", msg)
	}
	wantMovedAside(t, path)
}

// wantMovedAside asserts the damaged spool file at path was moved aside:
// kept for inspection, out of every later Resume's way.
func wantMovedAside(t *testing.T, path string) {
	t.Helper()
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the damaged spool file is still where Resume reads it: %v", err)
	}
	if _, err := os.Stat(path + ingest.DamagedExt); err != nil {
		t.Errorf("the damaged spool file was not kept: %v", err)
	}
}

// wantNothingMore asserts a later Resume of dir finds nothing: no result,
// no error, no new run beside the runs there were.
func wantNothingMore(t *testing.T, f *fixture, dir string, runs int) {
	t.Helper()
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if len(res) != 0 || err != nil {
		t.Errorf("later resume = %+v, %v; want nothing", res, err)
	}
	if got := f.srv.IngestedRuns(""); len(got) != runs {
		t.Errorf("runs after a later resume = %+v, want %d", got, runs)
	}
}

// One damaged record in the middle of a spool file (a bit flip, a disk
// error) costs that record only: Resume delivers the chunks around it,
// finalizes the run, returns a typed error naming the file and line, and
// moves the file aside. A second Resume finds nothing: it neither sends
// nor reports the file again.
func TestResumeSkipsADamagedLine(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, dir, rs, spool := spooled(t, f, routeAppend, 50) // everything stays in the spool
	line := damageChunk(t, spool, 3)                    // results z20..z29
	// A torn last line (its writer killed mid-write) is no damage.
	sp, err := os.OpenFile(spool, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteString(`{"kind":"ack","se`); err != nil {
		t.Fatal(err)
	}
	_ = sp.Close()

	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	wantDamage(t, err, spool, line, 1)
	if len(res) != 1 || res[0].Err != nil || res[0].Resent != 40 || res[0].Run == nil || res[0].Run.Status != ingest.StatusCompleted ||
		len(res[0].Damaged) != 1 || res[0].Damaged[0].Path != spool {
		t.Fatalf("resume = %+v", res)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	wantRows(t, f.srv, runs[0].ID, append(rs[:20:20], rs[30:]...))
	wantNothingMore(t, f, dir, 1)
}

// A damaged file whose last line is a whole chunk record but for its
// newline (a short write: a full disk took the last byte) delivers that
// chunk too, and the acknowledgements appended after it (ending the line)
// never revive it: a later Resume sends nothing more.
func TestResumeDeliversAWholeLastLineOnce(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, dir, rs, spool := spooled(t, f, routeAppend, 50)
	b, err := os.ReadFile(spool)
	if err != nil {
		t.Fatal(err)
	}
	var last string
	for _, l := range strings.SplitAfter(string(b), "\n") {
		if strings.Contains(l, `"kind":"chunk"`) {
			last = l
		}
	}
	// A 6th chunk of other results, written but for its newline.
	torn := strings.Replace(strings.TrimSuffix(last, "\n"), `"seq":5`, `"seq":6`, 1)
	torn = strings.ReplaceAll(strings.ReplaceAll(torn, `"z4`, `"y4`), `"z-4`, `"y-4`)
	if torn == strings.TrimSuffix(last, "\n") || !strings.Contains(torn, `"y4`) {
		t.Fatalf("no 6th chunk made of %q", last)
	}
	line := damageChunk(t, spool, 3)
	sp, err := os.OpenFile(spool, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteString(torn); err != nil {
		t.Fatal(err)
	}
	_ = sp.Close()

	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	wantDamage(t, err, spool, line, 1)
	if len(res) != 1 || res[0].Err != nil || res[0].Resent != 50 {
		t.Fatalf("resume = %+v", res)
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	y := results("y", 50, 0)
	wantRows(t, f.srv, runs[0].ID, append(append(rs[:20:20], rs[30:]...), y[40:]...))
	wantNothingMore(t, f, dir, 1)
}

// An intact spool whose writer was killed mid-line (a torn last line, no
// damage) stays intact through a Resume that stops after acknowledging
// (here its finalize fails): the torn line is cut off, not ended with a
// newline, so the next Resume neither reports it as a damaged line
// (ErrSpoolDamaged, exit status 3 in the CLI) nor moves the file aside,
// and finalizes the run with every result once.
func TestResumeTornLastLineIsNoDamageAfterAFailedFinalize(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c, dir, rs, spool := spooled(t, f, routeAppend, 30)
	sp, err := os.OpenFile(spool, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sp.WriteString(`{"kind":"chunk","seq":9,"results":[{"caseTi`); err != nil {
		t.Fatal(err)
	}
	_ = sp.Close()
	f.srv.ClearFaults()
	f.srv.SetFault(routeFinalize, projectopstest.Fault{Status: 500})
	res, err := ingest.Resume(t.Context(), c.Ingest, dir)
	if err == nil || errors.Is(err, ingest.ErrSpoolDamaged) || len(res) != 1 || res[0].Resent != 30 {
		t.Fatalf("resume with a failing finalize = %+v, %v", res, err)
	}
	f.srv.ClearFaults()
	res, err = ingest.Resume(t.Context(), c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Err != nil || res[0].Resent != 0 || res[0].Run == nil ||
		res[0].Run.Status != ingest.StatusCompleted || len(res[0].Damaged) != 0 {
		t.Errorf("second resume = %+v, %v; want the run finalized, no damage", res, err)
	}
	if _, serr := os.Stat(spool + ingest.DamagedExt); serr == nil {
		t.Errorf("an intact spool was moved aside as damaged")
	}
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	wantRows(t, f.srv, runs[0].ID, rs)
	wantNothingMore(t, f, dir, 1)
}

// A Resume whose finalize completed the run but whose answer was lost (or
// that stopped right after it) left the files acknowledged: the next one
// finds the run complete with nothing left to send, and makes no
// "-resumed-" run of results the run already holds.
func TestResumeAfterALostFinalizeAnswerSendsNothingAgain(t *testing.T) {
	t.Parallel()
	f := setup(t)
	c, dir, rs, spool := spooled(t, f, routeAppend, 30)
	f.srv.SetFault(routeFinalize, projectopstest.Fault{Status: 500})
	res, err := ingest.ResumeWithOptions(t.Context(), c.Ingest, dir, ingest.ResumeOptions{})
	if err == nil || len(res) != 1 || res[0].Err == nil || res[0].Resent != 30 {
		t.Fatalf("resume with a failing finalize = %+v, %v", res, err)
	}
	f.srv.ClearFaults()
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 {
		t.Fatalf("runs = %+v", runs)
	}
	// The finalize did complete the run; only its answer was lost.
	if _, err := f.c.Ingest.FinalizeRun(t.Context(), f.ws.ProjectID, ingest.FinalizeParams{RunID: runs[0].ID, ExternalRunID: "ext-" + t.Name()}); err != nil {
		t.Fatal(err)
	}
	res, err = ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Err != nil || res[0].Resent != 0 || res[0].CompletedRunID != "" {
		t.Errorf("resume of the complete run = %+v, %v", res, err)
	}
	if runs := f.srv.IngestedRuns(""); len(runs) != 1 {
		t.Errorf("runs = %+v: results the run holds went to a -resumed- run", runs)
	}
	wantRows(t, f.srv, runs[0].ID, rs)
	if _, err := os.Stat(spool); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the spool file was kept: %v", err)
	}
}

// A damaged acknowledgement makes its chunk look unsent. When the run is
// already complete (its finalize's answer was lost), the chunk cannot be
// told from results the run never got, so it goes to a "-resumed-" run: a
// duplicate, as docs/reporter.md says, never a loss.
func TestResumeDamagedAckOnACompleteRunDuplicates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, dir, rs, spool := spooled(t, f, routeFinalize, 30)
	runs := f.srv.IngestedRuns("")
	if len(runs) != 1 {
		t.Fatalf("runs = %d", len(runs))
	}
	if _, err := f.c.Ingest.FinalizeRun(t.Context(), f.ws.ProjectID, ingest.FinalizeParams{RunID: runs[0].ID, ExternalRunID: "ext-" + t.Name()}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(spool)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	line := 0
	for i, l := range lines {
		if strings.Contains(l, `"kind":"ack"`) {
			lines[i], line = "{\"kind\":\"ack\",\x00\n", i+1
			break
		}
	}
	if line == 0 {
		t.Fatalf("no ack in %q", lines)
	}
	if err := os.WriteFile(spool, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}

	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	wantDamage(t, err, spool, line, 1)
	if len(res) != 1 || res[0].Err != nil || res[0].Resent != 10 || res[0].CompletedRunID != "ext-"+t.Name() ||
		!strings.Contains(res[0].ExternalRunID, "-resumed-") {
		t.Fatalf("resume = %+v", res)
	}
	wantRows(t, f.srv, runs[0].ID, rs)
	wantRows(t, f.srv, res[0].Run.RunID, rs[:10])
	wantNothingMore(t, f, dir, 2)
}

// A damaged file that cannot be moved aside once its run is delivered
// (something stands at its new name) is a cleanup failure, not the run's:
// the result has no Err, the error says the run was delivered, and a later
// Resume sends nothing from the file (every chunk of it acknowledged).
func TestResumeDamagedFileNotMovedIsStillDelivered(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, dir, _, spool := spooled(t, f, routeAppend, 30)
	damageChunk(t, spool, 2)
	if err := os.MkdirAll(filepath.Join(spool+ingest.DamagedExt, "in-the-way"), 0o700); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if len(res) != 1 || res[0].Err != nil || res[0].Run == nil || res[0].Run.Status != ingest.StatusCompleted || res[0].Resent != 20 {
		t.Fatalf("resume = %+v", res)
	}
	if err == nil || !strings.Contains(err.Error(), "(delivered)") || !strings.Contains(err.Error(), "moving the damaged file aside") {
		t.Errorf("err = %v, want the failed move, the run said delivered", err)
	}
	res, _ = ingest.Resume(t.Context(), f.c.Ingest, dir)
	if len(res) != 1 || res[0].Err != nil || res[0].Resent != 0 || res[0].CompletedRunID != "" {
		t.Errorf("later resume = %+v", res)
	}
	if runs := f.srv.IngestedRuns(""); len(runs) != 1 {
		t.Errorf("runs = %+v", runs)
	}
}

// Two processes spool one run into one directory and one file is
// damaged: the other file's results and the damaged file's intact ones
// are all delivered, the healthy file is removed, the damaged one moved
// aside.
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
	wantNothingMore(t, f, dir, 1)
}

// A damaged first line leaves the file's run unknown: nothing of it is
// sent, it is moved aside at once (reported by this Resume only), and the
// error says so; other files go as usual.
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
	if !errors.As(err, &d) || d.Path != bad || d.MovedTo != bad+ingest.DamagedExt || d.Line != 1 || !d.RunRecord ||
		strings.Contains(err.Error(), damagedSecret) || !strings.Contains(err.Error(), "moved aside to "+d.MovedTo) {
		t.Fatalf("err = %v (%+v), want the run record's damage", err, d)
	}
	if len(res) != 1 || res[0].Err != nil || len(res[0].Damaged) != 0 {
		t.Fatalf("resume = %+v", res)
	}
	wantRows(t, f.srv, res[0].Run.RunID, rs)
	wantMovedAside(t, bad)
	wantNothingMore(t, f, dir, 1)
}

// A one-shot report the service refused, in a file whose "refused" mark is
// the damaged line, is not taken as stored in a complete run that merely
// counts alike (it would be lost): it goes to a run of its own.
func TestResumeDamagedRefusedMarkIsNotTakenAsStored(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: http.StatusForbidden, Times: 1})
	spool, dir := spoolShared(t, f.c, "", "mine-", 3, 2)
	completeShared(t, f, "other-", 3, 2) // same size, same verdicts
	b, err := os.ReadFile(spool)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(b), "\n")
	line := 0
	for i, l := range lines {
		if strings.Contains(l, `"kind":"refused"`) {
			lines[i], line = "{\"kind\":\"refu\x00\n", i+1
		}
	}
	if line == 0 {
		t.Fatalf("no refused mark in %q", lines)
	}
	if err := os.WriteFile(spool, []byte(strings.Join(lines, "")), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	wantDamage(t, err, spool, line, 1)
	if len(res) != 1 || res[0].Err != nil || res[0].CompletedRunID != "shared" || res[0].Resent != 3 {
		t.Errorf("resume = %+v", res)
	}
	if n := storedRows(t, f, "mine-"); n != 3 {
		t.Errorf("%d of 3 results of the refused report are stored anywhere", n)
	}
}

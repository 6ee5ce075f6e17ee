package ingest

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/option"
)

// ResumeResult is what Resume did for one run.
type ResumeResult struct {
	Project, ExternalRunID string
	Files                  []string
	// Resent counts the results sent again (the service skips those it
	// already had).
	Resent int
	// Truncated counts the results among them sent with a spooled widget's
	// HTML dropped (a visible marker in its place), as Outcome.Truncated
	// counts the Reporter's: its upload was answered without a storageId
	// (ErrNoStorageID), so nothing was stored, and asking again would not
	// change that.
	Truncated int
	Run       *RunResult
	Err       error
	// CompletedRunID is set when the run the files were written for (or,
	// for a second suite under one id, its "-suite-" id) was
	// already complete without their results (another reporter, or an
	// earlier invocation, used the same external run id): it is that id,
	// and the results went to a new run, ExternalRunID, instead of being
	// dropped. A one-shot report whose lost answer may have completed
	// that run is not among them (see Resume): when it was all the files
	// held, CompletedRunID stays empty, Resent is 0 and Run is that run.
	CompletedRunID string
	// Damaged lists the run's files with lines that could not be read
	// (each also in Resume's error): the damaged lines were skipped, the
	// rest was sent with the run, and the files are kept for inspection,
	// moved aside once the run is finalized (see SpoolDamageError).
	Damaged []*SpoolDamageError
}

// Resume sends what spool files in dir hold and finalizes their runs: the
// recovery path after a failed or killed reporter, and how results recorded
// from inside tests (TBRecorder) are delivered once every package is done.
// Files of one run (same project and external run id) are finalized once,
// together; among the files one Resume sees, a second suite recorded under
// the same external run id goes to a run of its own,
// "<externalRunId>-suite-<hash>" (ResumeResult's ExternalRunID). Give each
// suite its own external run id: a suite resumed on its own keeps the id,
// and the service's run of that id may be another suite's. A file is removed once its run is finalized; files whose run
// failed stay for another attempt, and the returned error joins those
// failures. Re-sending is safe: the service skips iterations it already
// stored, and a run that is already complete is left as it is. A spooled
// widget file (a TBRecorder's HTML too large for a chunk) is uploaded, and
// its blob's id kept beside it until the spool is removed, so a resume
// that fails later does not upload it again. An upload the service
// answers without a storageId (ErrNoStorageID) stored nothing for good:
// that snapshot goes without its HTML, with the visible marker the
// Reporter puts there (the result cut again, as the Reporter cuts one,
// should the markers make it too large for a chunk), counted in
// ResumeResult.Truncated and logged as a
// warning (to slog.Default(); ResumeWithOptions takes another logger),
// and the run goes on; any other failed upload
// fails the run's resume, its error naming the widget file. What the
// files hold for a complete run goes as follows. A one-shot report that
// may have completed it (its answer was lost: the service did not refuse
// it, and it did not provably fail to connect) is taken as stored there,
// and not sent again, when the run holds exactly its rows as far as the
// run's summary tells (as many rows as its distinct iterations, as many
// passed); one such report at most, the one written first, when several
// match. Any other
// unacknowledged result goes to a new run, "<externalRunId>-resumed-<hash>"
// (ResumeResult.CompletedRunID says so), rather than nowhere. Resumes of
// one directory run one at a time (an OS lock on a file in dir, where the
// platform has one: Unix and Windows): a second one waits for the first,
// then finds what it left. A spool file its reporter still writes (locked
// while it lives) is left to that reporter, and an empty one (its writer
// died before writing) is removed. A damaged line (a disk error, an edit
// by hand) costs only what it held: Resume skips it, sends the rest of the
// file with its run, and returns a *SpoolDamageError (ErrSpoolDamaged)
// naming the file and the line, never its content, beside the results
// (ResumeResult.Damaged lists a run's). Once the run is finalized the file
// is moved aside (its name, then DamagedExt), kept with its widget files
// for inspection: no later Resume sends or reports it again. A file whose
// first line is damaged has no known run: nothing of it is sent, and it is
// moved aside at once. A damaged acknowledgement makes its chunk look
// unsent: sent again, it is skipped by a run still open, and goes to a
// "-resumed-" run when the run is complete (a duplicate, never a loss).
//
// Every result is delivered at least once. Resume sends what the files do
// not acknowledge, appends acknowledgements, finalizes, then removes the
// files (moves a damaged one aside); stopped at any step, the next Resume
// sends again only what was not acknowledged, which the service skips
// while the run is open, and finds nothing left once it is complete. opts
// apply to every request it sends, as ReporterOptions.RequestOptions do.
func Resume(ctx context.Context, svc *Service, dir string, opts ...option.RequestOption) ([]ResumeResult, error) {
	return resume(ctx, svc, dir, slog.Default(), opts)
}

// resume is Resume, warning to log.
func resume(ctx context.Context, svc *Service, dir string, log *slog.Logger, opts []option.RequestOption) ([]ResumeResult, error) {
	// Every WithResponseInto target is refused, so describes no request:
	// reset each, the ones after a refused option included.
	transport.ResetTargets(opts)
	c, err := option.ForCall(opts)
	if err != nil {
		return nil, err
	}
	if c.IdempotencyKey != "" || c.Response != nil {
		return nil, apierr.Invalid("opts", "WithIdempotencyKey and WithResponseInto name one call: Resume sends many")
	}
	ctx = transport.WithOptions(ctx, opts)
	if err := checkSpoolDir(dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	unlock, err := lockSpoolDir(ctx, dir)
	if err != nil {
		return nil, fmt.Errorf("projectops: ingest spool %s: %w", dir, err)
	}
	defer unlock()
	paths, err := filepath.Glob(filepath.Join(dir, "*"+SpoolExt))
	if err != nil {
		return nil, err
	}
	sort.Strings(paths)
	type key struct{ project, ext, suite string }
	groups := map[key]*ResumeResult{}
	var order []key
	var errs []error
	runs := map[key]RunParams{}
	damaged := map[string]*SpoolDamageError{}
	unread := map[key]error{} // a group with a file that could not be read through
	for _, p := range paths {
		switch state, err := spoolState(p); {
		case err != nil:
			errs = append(errs, err)
			continue
		case state == spoolLive:
			continue // its reporter is still writing and sending it
		case state == spoolEmpty:
			// A writer that died before its first line: nothing to send.
			if err := os.Remove(p); err != nil {
				errs = append(errs, err)
			}
			continue
		}
		hdr, err := readSpoolHeader(p)
		var d *SpoolDamageError
		if errors.As(err, &d) {
			// Its run is unknown and nothing of it can be sent: moved aside
			// at once, so this Resume is the only one to report it.
			if merr := moveAside(d); merr != nil {
				errs = append(errs, merr)
			}
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		k := key{hdr.Project, hdr.Run.ExternalRunID, hdr.Run.SuiteName}
		if groups[k] == nil {
			groups[k] = &ResumeResult{Project: hdr.Project, ExternalRunID: hdr.Run.ExternalRunID}
			run := *hdr.Run
			// The spool never holds the host config (see withoutSecrets):
			// a hash found without it is not resent alone.
			run.HostConfig, run.HostConfigHash = nil, ""
			runs[k] = run
			order = append(order, k)
		}
		groups[k].Files = append(groups[k].Files, p)
		// Damaged lines are skipped and the rest sent: one bad record
		// holds back neither its file nor the run's other files.
		switch d, err := spoolDamage(p); {
		case err != nil:
			unread[k] = err // the run waits for all of its files
		case d != nil:
			damaged[p] = d
			groups[k].Damaged = append(groups[k].Damaged, d)
			errs = append(errs, d)
		}
	}
	// One external id is one run of one suite: a second suite recorded
	// under the same id (PROJECTOPS_EXTERNAL_RUN_ID given to both) goes to
	// a run named after both, the same whichever of these files comes
	// first (the first suite by name keeps the id).
	suites := map[key][]string{}
	for _, k := range order {
		pk := key{k.project, k.ext, ""}
		suites[pk] = append(suites[pk], k.suite)
	}
	for _, k := range order {
		if ss := suites[key{k.project, k.ext, ""}]; len(ss) > 1 && k.suite != slices.Min(ss) {
			r := runs[k]
			r.ExternalRunID = suiteRunID(k.ext, k.suite)
			runs[k], groups[k].ExternalRunID = r, r.ExternalRunID
		}
	}
	finalized := map[string]bool{}
	out := make([]ResumeResult, 0, len(order))
	for _, k := range order {
		g := groups[k]
		var ext string
		if g.Err = unread[k]; g.Err == nil {
			g.Run, ext, g.Err = resumeRun(ctx, svc, log, k.project, runs[k], g)
			if ext != runs[k].ExternalRunID {
				g.CompletedRunID, g.ExternalRunID = runs[k].ExternalRunID, ext
			}
		}
		if g.Err != nil {
			errs = append(errs, fmt.Errorf("run %s: %w", k.ext, g.Err))
			out = append(out, *g)
			continue
		}
		// Delivered and finalized: what fails from here on costs no result
		// (every chunk of the files is acknowledged), so it is no failure
		// of the run's, only of the cleanup, which a later Resume finishes.
		finalized[k.ext] = true
		for _, f := range g.Files {
			if d := damaged[f]; d != nil {
				// Evidence, kept with its widget files, out of every later
				// Resume's way: its damage is reported this once.
				if err := moveAside(d); err != nil {
					errs = append(errs, fmt.Errorf("run %s (delivered): %w", k.ext, err))
				}
				continue
			}
			if err := os.Remove(f); err != nil {
				errs = append(errs, fmt.Errorf("run %s (delivered): %w", k.ext, err))
			}
			removeWidgets(f)
		}
		out = append(out, *g)
	}
	cleanRunIDs(dir, finalized)
	cleanWidgets(dir)
	return out, errors.Join(errs...)
}

// orphanAge is how long a run id file without a spool file of its run may
// be on its way to one (its first process is opening its spool); a widget
// file without its spool file gets the same grace.
const orphanAge = time.Minute

// orphanOld reports whether the file at path is older than orphanAge.
func orphanOld(path string) bool {
	st, err := os.Stat(path)
	return err == nil && time.Since(st.ModTime()) > orphanAge
}

// cleanRunIDs removes the TBRecorder run id files (see RunIDFile) of the
// runs Resume finalized, however the directory's other runs fared: the
// next invocation's results belong to a new run, not to a finalized one.
// It also removes those no spool file belongs to (a process killed before
// its first line, spools removed by hand) and the temporary files of
// processes killed while drawing an id, once orphanAge old: nothing else
// would.
func cleanRunIDs(dir string, finalized map[string]bool) {
	var ids []string
	if _, err := os.Stat(filepath.Join(dir, RunIDFile)); err == nil {
		ids = append(ids, filepath.Join(dir, RunIDFile)) // a recorder's before they were per invocation
	}
	keyed, _ := filepath.Glob(filepath.Join(dir, RunIDFile+".*"))
	for _, p := range keyed {
		if isRunIDName(filepath.Base(p)) {
			ids = append(ids, p)
		}
	}
	spools, _ := filepath.Glob(filepath.Join(dir, "*"+SpoolExt))
	for _, p := range ids {
		b, err := os.ReadFile(p)
		if err != nil {
			continue
		}
		id := strings.TrimSpace(string(b))
		if finalized[id] || orphanOld(p) && !spoolOwned(spools, id) {
			_ = os.Remove(p)
		}
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, "."+RunIDFile+"-*"))
	for _, p := range tmps {
		if orphanOld(p) {
			_ = os.Remove(p)
		}
	}
}

// spoolOwned reports whether a spool file of spools belongs to the run id:
// by its name, which holds the whole id unless safeName cut it (a long CI
// id), then by its header. An unreadable header counts as the id's.
func spoolOwned(spools []string, id string) bool {
	name := safeName(id)
	for _, sp := range spools {
		if !strings.HasPrefix(filepath.Base(sp), name+".") {
			continue
		}
		if len(name) < maxSafeName {
			return true
		}
		if hdr, err := readSpoolHeader(sp); err != nil || hdr.Run.ExternalRunID == id {
			return true
		}
	}
	return false
}

// isRunIDName reports whether name is a run id file's (see runIDPath).
func isRunIDName(name string) bool {
	h, ok := strings.CutPrefix(name, RunIDFile+".")
	if !ok || len(h) != 16 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil
}

// resumeRun starts (reuses) the run, re-sends every unacknowledged result
// of files in batches within the default chunk limits, and finalizes. It
// returns the external id of the run the results went to: run's, or when
// that run was already complete and the files hold unacknowledged results
// it cannot be holding (all but a one-shot report that may have completed
// it: see Resume), a new run's (see resumedRunID). It counts what it sent
// in g's Resent and Truncated, and reads g's Files.
func resumeRun(ctx context.Context, svc *Service, log *slog.Logger, project string, run RunParams, g *ResumeResult) (*RunResult, string, error) {
	files := g.Files
	st, err := svc.StartRun(ctx, project, run)
	if err != nil {
		return nil, run.ExternalRunID, err
	}
	var stored chunkKey // the report chunk taken as stored, if any
	if st.Reused && st.Status != StatusRunning {
		// Complete already. A one-shot report whose answer was lost may be
		// what completed it: a report creates, stores and finalizes its
		// run in one call, so unless the service refused it (or it never
		// left), when the run holds exactly its rows they are its (and
		// were the run someone else's, the report would have been
		// answered with that run, storing nothing, as the reporter then
		// counts it sent). With nothing else unacknowledged there is
		// nothing to deliver. Otherwise the id was taken by another
		// reporter or an earlier invocation, and its run takes no more
		// results: they go to a run of their own rather than nowhere. (A
		// resume of the run's own that stopped after finalizing left its
		// files acknowledged: nothing goes there.)
		var err error
		if stored, err = storedReports(intactFiles(g), st.Summary); err != nil {
			return st, run.ExternalRunID, err
		}
		n, err := countUnacked(files, stored)
		if err != nil || n == 0 {
			return st, run.ExternalRunID, err
		}
		run.ExternalRunID = resumedRunID(run.ExternalRunID, files)
		if st, err = svc.StartRun(ctx, project, run); err != nil {
			return nil, run.ExternalRunID, err
		}
		if st.Reused && st.Status != StatusRunning {
			return st, run.ExternalRunID, nil // an earlier resume delivered them there
		}
	}
	if err := sendUnacked(ctx, svc, log, project, st.RunID, stored, g); err != nil {
		return nil, run.ExternalRunID, err
	}
	if run.ExternalRunID == g.ExternalRunID {
		// Acknowledged before the finalize: a Resume stopped after it
		// then finds the run complete with nothing left to send, not with
		// results it would send to a "-resumed-" run. (A resumed run needs
		// none: its id is the same the next time, and found complete it
		// takes nothing more.) A failed ack costs that guard only: the
		// results are stored, and the run is finalized all the same.
		for _, f := range files {
			if err := ackAll(f); err != nil {
				log.Warn("projectops: ingest: resume: not acknowledged; should this resume stop before removing the file, the next one sends its results again", "err", err)
			}
		}
	}
	fin, err := svc.FinalizeRun(ctx, project, FinalizeParams{RunID: st.RunID, ExternalRunID: run.ExternalRunID})
	return fin, run.ExternalRunID, err
}

// resumedRunID names the run that takes a spool's results when the run
// they were written for was complete without them: the same id for the
// same files, so a resume that stops half-way continues into it.
func resumedRunID(ext string, files []string) string {
	h := sha256.New()
	for _, f := range files {
		h.Write([]byte(filepath.Base(f) + "\x00"))
	}
	return withSuffix(ext, "-resumed-"+hex.EncodeToString(h.Sum(nil)[:4]))
}

// suiteRunID is the id of suite's run when ext names another suite's.
func suiteRunID(ext, suite string) string {
	sum := sha256.Sum256([]byte(suite))
	return withSuffix(ext, "-suite-"+hex.EncodeToString(sum[:4]))
}

// withSuffix is ext+suffix within the service's 256 characters: a long ext
// is cut so the suffix fits (its hash keeps the id apart from ext).
func withSuffix(ext, suffix string) string {
	if r := []rune(ext); len(r)+len(suffix) > maxIterationIDChars {
		ext = string(r[:maxIterationIDChars-len(suffix)])
	}
	return ext + suffix
}

// chunkKey names one chunk of one spool file.
type chunkKey struct {
	file string
	seq  int
}

// storedReports returns the unacknowledged chunk of files (the zero
// chunkKey for none) that was sent
// as a one-shot report and may be what completed the run whose summary is
// sum: one the service did not refuse (nor provably never received),
// whose rows the run holds exactly, as far as its summary tells: as many
// rows as the chunk's distinct iterations (externalIterationIds; the
// service stores the first of a repeated one) and as many passed among
// them. Any other run (another reporter's, a CI re-run's, one without a
// summary) cannot be taken to hold them: they go to a resumed run.
//
// One chunk at most: a report creates, stores and completes
// its run in one call, so one report at most completed it, and a later
// report to the same id found it complete and stored nothing. When
// several match (reporters sharing an external run id, with results that
// count alike), the one written first is taken (the oldest file, by
// modification time), as the report that arrived first is the one that
// completed the run; the others go to the resumed run. Two written in the
// same tick of the file system's clock cannot be ordered (file names are
// random): then none is taken, and all go to the resumed run (a duplicate
// run at worst, never a lost report). The summary cannot tell such reports apart, so
// this is a guess: were it wrong (the earlier report never arrived, a
// later one did), the chunk taken would not be delivered. Only reporters
// sharing an external run id, each losing its report's answer, with the
// same counts, get there.
func storedReports(files []string, sum *Summary) (chunkKey, error) {
	if sum == nil {
		return chunkKey{}, nil
	}
	var best chunkKey
	var bestTime time.Time
	found, tied := false, false
	for _, f := range files {
		var mtime time.Time
		if fi, err := os.Stat(f); err == nil {
			mtime = fi.ModTime()
		}
		err := eachUnackedChunk(f, func(rec *spoolRecord, refused bool) error {
			if !rec.Report || refused {
				return nil
			}
			var results []struct {
				ID     string `json:"externalIterationId"`
				Passed bool   `json:"passed"`
			}
			if err := json.Unmarshal(rec.Results, &results); err != nil {
				return fmt.Errorf("projectops: %s: chunk %d: %w", f, rec.Seq, err)
			}
			ids := make(map[string]bool, len(results))
			rows, passed := 0, 0
			for _, r := range results {
				if r.ID != "" {
					if ids[r.ID] {
						continue
					}
					ids[r.ID] = true
				}
				rows++
				if r.Passed {
					passed++
				}
			}
			if sum.Total == rows && sum.Passed == passed {
				switch {
				case !found || mtime.Before(bestTime):
					best, bestTime, found, tied = chunkKey{f, rec.Seq}, mtime, true, false
				case mtime.Equal(bestTime):
					tied = true // no order to go by
				}
			}
			return nil
		})
		if err != nil {
			return chunkKey{}, err
		}
	}
	if !found || tied {
		return chunkKey{}, nil
	}
	return best, nil
}

// intactFiles returns g's Files but those with damaged lines: a damaged
// one's report may have lost its "refused" mark, and a refused report
// taken as stored would be lost, so it is never taken as stored (sent to a
// resumed run, it is a duplicate at worst).
func intactFiles(g *ResumeResult) []string {
	var out []string
	for _, f := range g.Files {
		if !slices.ContainsFunc(g.Damaged, func(d *SpoolDamageError) bool { return d.Path == f }) {
			out = append(out, f)
		}
	}
	return out
}

// countUnacked counts the results of files that were never acknowledged,
// but for the chunk skip (none when zero).
func countUnacked(files []string, skip chunkKey) (int, error) {
	n := 0
	for _, f := range files {
		if err := eachUnacked(f, skip, func(json.RawMessage) error { n++; return nil }); err != nil {
			return n, err
		}
	}
	return n, nil
}

// sendUnacked re-sends every unacknowledged result of g's Files, but for
// the chunk skip, to the run in batches within the default chunk limits, and
// counts them in g's Resent (and those sent with widget HTML dropped in
// its Truncated).
func sendUnacked(ctx context.Context, svc *Service, log *slog.Logger, project, runID string, skip chunkKey, g *ResumeResult) error {
	var batch []json.RawMessage
	size, truncated := 0, 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		// Spliced, not json.Marshal'd: Marshal would HTML-escape the
		// spooled results (< > & as \u003c, 6 bytes each), and a body the
		// reporter could send might no longer fit the service's limit.
		// A fresh buffer per batch: appendRaw's body may still be read
		// after it returned.
		body := appendJSONString([]byte(`{"runId":`), runID)
		body = append(body, `,"results":[`...)
		for i, res := range batch {
			if i > 0 {
				body = append(body, ',')
			}
			body = append(body, res...)
		}
		body = append(body, "]}"...)
		if _, err := svc.appendRaw(ctx, project, nil, body, nil); err != nil {
			return err
		}
		g.Resent += len(batch)
		g.Truncated += truncated
		batch, size, truncated = batch[:0], 0, 0
		return nil
	}
	for _, f := range g.Files {
		err := eachUnacked(f, skip, func(res json.RawMessage) error {
			res, dropped, err := uploadSpooled(ctx, svc, log, project, filepath.Dir(f), res)
			if err != nil {
				return err
			}
			if len(batch) >= DefaultChunkSize || size+len(res)+1 > DefaultChunkBytes-chunkOverhead {
				if err := flush(); err != nil {
					return err
				}
			}
			batch = append(batch, slices.Clone(res))
			size += len(res) + 1
			if dropped > 0 {
				truncated++
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return flush()
}

func readSpoolHeader(path string) (*spoolRecord, error) {
	f, err := openOwn(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	line, err := bufio.NewReader(f).ReadBytes('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	rec, ok := decodeRecord(line)
	if !ok || rec.Kind != "run" || rec.Run == nil || rec.Run.ExternalRunID == "" {
		return nil, &SpoolDamageError{Path: path, Line: 1, Lines: 1, RunRecord: true}
	}
	return rec, nil
}

// eachUnacked calls fn with every result of the file's chunks that were
// never acknowledged, but for the chunk skip (none when zero).
func eachUnacked(path string, skip chunkKey, fn func(json.RawMessage) error) error {
	return eachUnackedChunk(path, func(rec *spoolRecord, _ bool) error {
		if skip == (chunkKey{path, rec.Seq}) {
			return nil
		}
		var results []json.RawMessage
		if err := json.Unmarshal(rec.Results, &results); err != nil {
			return fmt.Errorf("projectops: %s: chunk %d: %w", path, rec.Seq, err)
		}
		for _, res := range results {
			if err := fn(res); err != nil {
				return err
			}
		}
		return nil
	})
}

// eachUnackedChunk calls fn with every chunk of the file that was never
// acknowledged, and whether the service refused it (a one-shot report
// answered with a refusal). It reads the file twice (acks, then chunks) so
// that only one chunk is in memory at a time. A torn last line (the
// process was killed while writing it) is ignored: that chunk was never
// sent either.
func eachUnackedChunk(path string, fn func(rec *spoolRecord, refused bool) error) error {
	acked, refused := map[int]bool{}, map[int]bool{}
	if err := eachRecord(path, func(rec *spoolRecord) error {
		switch rec.Kind {
		case "ack":
			acked[rec.Seq] = true
		case "refused":
			refused[rec.Seq] = true
		}
		return nil
	}); err != nil {
		return err
	}
	return eachRecord(path, func(rec *spoolRecord) error {
		if rec.Kind != "chunk" || acked[rec.Seq] {
			return nil
		}
		return fn(rec, refused[rec.Seq])
	})
}

// eachRecord calls fn with every intact record of the file, skipping
// damaged lines (Resume reports them once, from spoolDamage).
func eachRecord(path string, fn func(*spoolRecord) error) error {
	return eachLine(path, fn, nil)
}

// The states of a spool file as Resume finds it.
const (
	spoolDone  = iota // its writer is gone: Resume's to send
	spoolLive         // its writer holds its lock
	spoolEmpty        // its writer died before writing anything
)

// spoolState tells a live reporter's spool (locked) from one whose writer
// is gone.
func spoolState(path string) (int, error) {
	f, err := openOwn(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	switch err := tryLock(f); {
	case errors.Is(err, errLocked):
		return spoolLive, nil
	case err != nil:
		return 0, err
	}
	defer func() { _ = unlockFile(f) }()
	if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
		if time.Since(fi.ModTime()) < orphanAge {
			// Its writer may have just created it and not locked it
			// yet: removed, its results would go to an unlinked file.
			return spoolLive, nil
		}
		return spoolEmpty, nil
	}
	return spoolDone, nil
}

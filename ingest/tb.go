package ingest

import (
	"cmp"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/wire"
)

// TB is the part of testing.TB that TBRecorder uses; *testing.T and
// *testing.B satisfy it.
type TB interface {
	Name() string
	Helper()
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
}

// Environment a TBRecorder reads its defaults from (through
// TBOptions.Getenv).
const (
	// EnvProject is the project a TBRecorder's results go to (default "default").
	EnvProject = "PROJECTOPS_PROJECT"
	// EnvSuite names a TBRecorder's suite (default "go test").
	EnvSuite = "PROJECTOPS_SUITE"
	// EnvStrict set to 1 (or true) makes a TBRecorder's recording failure
	// fail the test, 0 (or false) only logs it; unset, a recorder is strict
	// in CI (where a passing package's output is never read) and not
	// elsewhere.
	EnvStrict = "PROJECTOPS_STRICT"
	// RunIDFile begins the names of the files, in the spool directory,
	// that hold the external run id every test process of one go test
	// invocation shares for one suite, unless PROJECTOPS_EXTERNAL_RUN_ID
	// names the run: one file per invocation and suite, so a second go
	// test before Resume records into a run of its own. Resume removes a
	// file once it has finalized its run.
	RunIDFile = "external-run-id"
)

// TBOptions configures a TBRecorder. Every field left empty is read through
// Getenv (default os.Getenv), once, when the recorder is made: nothing in
// this package reads the environment behind the caller's back.
type TBOptions struct {
	// SpoolDir is where results are appended; default DefaultSpoolDir.
	SpoolDir string
	// Project is the project the run goes to; default $PROJECTOPS_PROJECT,
	// else DefaultProject.
	Project string
	// Suite names the run's suite; default $PROJECTOPS_SUITE, else "go test".
	Suite string
	// Strict makes a recording failure fail the test (tb.Errorf); default
	// $PROJECTOPS_STRICT=1, or in CI (see DetectCI) unless
	// $PROJECTOPS_STRICT=0 (a Getenv that answers "" keeps it off whatever
	// the environment holds).
	Strict bool
	// APIKey is redacted wherever it appears in a result's strings,
	// whatever its shape (it need not start with sk_): a key of 8 bytes or
	// more in any spelling (percent- or JSON-escaped, in part, two layers
	// deep), a shorter one as written and as a URL path or query escapes
	// it. Never in a number or an object key that is a field name the SDK
	// writes itself: a key "passed" leaves the field of that name alone.
	// Other map keys of your own, in Metadata say, are cleaned as any
	// string is, but a key equal to (or inside) one of the SDK's field
	// names ("provider", "accessToken") is left wherever it is an object
	// key, yours included. Default $PROJECTOPS_API_KEY.
	APIKey string
	// Getenv reads the environment for the defaults above; default os.Getenv.
	Getenv func(string) string
}

// TBRecorder records eval results from inside Go tests durably: each one is
// redacted and appended to a spool file, so nothing is sent while tests run
// and nothing is lost if they crash. Every package of a go test invocation
// that records into the same SpoolDir and suite writes into the same run;
// once all are done, deliver and finalize it with "projectops report
// resume" or Resume. Make one per test package (a package-level variable)
// and share it between tests: it is safe for concurrent use.
//
// Run such tests with -count=1: go test answers a package whose test
// binary, flags and inputs are unchanged from its cache without running
// it, so nothing would be recorded (the spool directory, outside the
// module, is not one of the inputs it checks).
type TBRecorder struct {
	opt      *TBOptions // a pointer: fmt prints it as an address, never the API key
	id       tbIdentity
	ext      string      // $PROJECTOPS_EXTERNAL_RUN_ID when the recorder was made
	ciID     string      // the CI job's run id prefix, or ""
	ci       *CIMetadata // read with the rest, when the recorder was made
	mu       sync.Mutex
	sp       *spool
	enc      *encoder
	occ      map[string]int
	opened   bool
	err      error
	warnOnce sync.Once // the first recording failure goes to stderr
	seq      int
}

// NewTBRecorder returns a recorder with opt's defaults filled in. The spool
// file is opened at the first Record.
func NewTBRecorder(opt TBOptions) *TBRecorder {
	getenv := opt.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	opt.SpoolDir = orStr(opt.SpoolDir, DefaultSpoolDir(getenv))
	if abs, err := filepath.Abs(opt.SpoolDir); err == nil {
		opt.SpoolDir = abs // where the package's directory puts it, whatever a test's t.Chdir
	}
	opt.Project = orStr(opt.Project, orStr(getenv(EnvProject), DefaultProject))
	opt.Suite = orStr(opt.Suite, orStr(getenv(EnvSuite), "go test"))
	ci := DetectCI(getenv)
	strict, err := strconv.ParseBool(getenv(EnvStrict)) // 1, true, yes-like spellings; unset or odd: CI decides
	opt.Strict = opt.Strict || err == nil && strict || err != nil && ci != nil
	opt.APIKey = orStr(opt.APIKey, getenv("PROJECTOPS_API_KEY"))
	return &TBRecorder{opt: &opt, id: currentTBIdentity(), ext: getenv(EnvExternalRunID), ciID: ciRunID(getenv),
		ci: ci, occ: map[string]int{}}
}

// Record durably records res as an eval result of the current test (its
// tool calls, tokens, scores in Metadata, ...). CaseTitle defaults to the
// test's name after its package's import path ("example.com/m/pkg.TestX"),
// as "projectops report -- go test" titles a test. A recording failure is
// reported with tb.Errorf when Strict; otherwise it is logged with tb.Logf,
// and the recorder's first one is also written to standard error, which go
// test shows even for a passing test when it runs in one directory or with
// -v or -json. A TBRecorder not made by NewTBRecorder records nothing: each
// Record fails the test with tb.Errorf (a VALIDATION_ERROR, "unconfigured
// recorder") whatever Strict would say, since every result would be lost.
func (t *TBRecorder) Record(tb TB, res Result) {
	tb.Helper()
	if t == nil || t.opt == nil {
		// A mistake in the test's code, not a reporting outage: it fails
		// the test, since a log line go test would hide for a passing one.
		tb.Errorf("projectops: recording the result: %v",
			apierr.Invalid("recorder", "unconfigured recorder: build it with ingest.NewTBRecorder"))
		return
	}
	if res.CaseTitle == "" {
		res.CaseTitle = tb.Name()
		if t.id.pkg != "" {
			res.CaseTitle = t.id.pkg + "." + res.CaseTitle
		}
	}
	err := res.check()
	if err == nil {
		err = t.record(tb.Name(), res)
	}
	if err != nil {
		if t.opt.Strict {
			tb.Errorf("projectops: recording the result: %v", err)
			return
		}
		tb.Logf("projectops: result not recorded: %v", err)
		t.warnOnce.Do(func() {
			fmt.Fprintf(os.Stderr, "projectops: results of %s are not being recorded: %v\n", tb.Name(), err)
		})
	}
}

// Close closes the spool file; later Records open a new one. Closing a
// nil TBRecorder does nothing.
func (t *TBRecorder) Close() error {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sp == nil {
		return nil
	}
	err := t.sp.close(false) // kept for Resume
	t.sp, t.opened = nil, false
	return err
}

func (t *TBRecorder) record(testName string, res Result) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.opened {
		t.opened = true
		t.err = t.open()
	}
	if t.err != nil {
		return t.err
	}
	if res.ExternalIterationID == "" {
		key := testName + "\x00" + res.CaseTitle
		t.occ[key]++
		res.ExternalIterationID = IterationID(t.occ[key], t.id.nonce, t.id.pkg, t.id.dir, testName, res.CaseTitle)
	}
	b, cut, err := t.enc.encode(&res)
	if err == nil && cut && hasWidgetHTML(&res) {
		// The HTML waits beside the spool for Resume to upload.
		if err = t.spoolWidgets(&res, t.seq+1); err == nil {
			b, _, err = t.enc.encode(&res)
		}
	}
	if err != nil {
		return err
	}
	t.seq++
	arr := make([]byte, 0, len(b)+2)
	arr = append(append(append(arr, '['), b...), ']')
	t.sp.write(spoolRecord{Kind: "chunk", Seq: t.seq}, arr)
	return t.sp.err
}

func (t *TBRecorder) open() error {
	dir := t.opt.SpoolDir
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	if err := checkSpoolDir(dir); err != nil {
		return err
	}
	ext := t.ext
	if ext == "" {
		var err error
		if ext, err = sharedRunID(runIDPath(dir, t.id.invocation, t.opt.Suite), t.ciID); err != nil {
			return err
		}
	}
	run := RunParams{SuiteName: t.opt.Suite, ExternalRunID: ext, Framework: "go", CI: t.ci}
	// The key, of any shape, is cleaned as a run secret is: only inside
	// strings (replaceInStrings), so a short one equal to a field name or
	// a digits-only one beside a number neither renames the field nor
	// makes the document's cleaning give up.
	rd := redactor{values: wire.NewScrubber(wire.KeyValues(t.opt.APIKey, Redacted))}
	t.enc = newEncoder(rd, nil, DefaultChunkBytes)
	sp, err := openSpool(dir, t.opt.Project, run, t.enc.redact)
	if err != nil {
		return err
	}
	t.sp = sp
	return nil
}

// sharedRunID returns the run id held in path (see runIDPath), created
// atomically by the invocation's first test process and removed by the
// Resume that finalizes its run. Not the CI job's id, which a reporter of
// the same step (projectops report -- go test) or a later go test of the
// same job would share, finding the run already finalized; in CI the id
// starts with the job's (ciID) for the reader.
func sharedRunID(path, ciID string) (string, error) {
	if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	var r [8]byte
	_, _ = rand.Read(r[:])
	id := cmp.Or(ciID, "local") + "-" + hex.EncodeToString(r[:])
	// Hidden, so that Resume's look for RunIDFile* never reads it half
	// written.
	tmp := filepath.Join(filepath.Dir(path), "."+RunIDFile+"-"+hex.EncodeToString(r[:]))
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o600); err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	for range 3 {
		if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
			return "", err
		}
		// Another process may have won the race, and a Resume that
		// finalized its run removed the file since: then link again.
		b, err := os.ReadFile(path)
		if err == nil {
			return strings.TrimSpace(string(b)), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", err
		}
	}
	return id, nil
}

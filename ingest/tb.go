package ingest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// TB is the part of testing.TB that RecordTB uses; *testing.T and
// *testing.B satisfy it.
type TB interface {
	Name() string
	Helper()
	Logf(format string, args ...any)
	Errorf(format string, args ...any)
}

// Environment read by RecordTB.
const (
	// EnvProject is the project RecordTB's results go to (default "default").
	EnvProject = "PROJECTOPS_PROJECT"
	// EnvSuite names RecordTB's suite (default "go test").
	EnvSuite = "PROJECTOPS_SUITE"
	// EnvStrict set to 1 makes a RecordTB failure fail the test.
	EnvStrict = "PROJECTOPS_STRICT"
	// RunIDFile, in the spool directory, holds the external run id that
	// every test process of one go test invocation shares when neither
	// PROJECTOPS_EXTERNAL_RUN_ID nor a CI job names the run. Resume
	// removes it once it has finalized the run.
	RunIDFile = "external-run-id"
)

// RecordTB durably records res as an eval result of the current test (its
// tool calls, tokens, scores in Metadata, ...): it is redacted and appended
// to a spool file in PROJECTOPS_SPOOL_DIR (see DefaultSpoolDir), so nothing
// is sent while tests run and nothing is lost if they crash. Every package
// of a go test invocation writes into the same run; once all are done,
// deliver and finalize it with "projectops report resume" or Resume.
// CaseTitle defaults to the test's name. A recording failure is logged
// with tb.Logf, or reported with tb.Errorf when PROJECTOPS_STRICT=1.
func RecordTB(tb TB, res Result) {
	tb.Helper()
	if res.CaseTitle == "" {
		res.CaseTitle = tb.Name()
	}
	if err := tbSpool.record(tb.Name(), res); err != nil {
		if os.Getenv(EnvStrict) == "1" {
			tb.Errorf("projectops: recording the result: %v", err)
			return
		}
		tb.Logf("projectops: result not recorded: %v", err)
	}
}

// tbRecorder is the process-wide spool RecordTB appends to.
type tbRecorder struct {
	mu     sync.Mutex
	sp     *spool
	enc    *encoder
	occ    map[string]int
	cwd    string
	opened bool
	err    error
	seq    int
}

var tbSpool = &tbRecorder{occ: map[string]int{}}

func (t *tbRecorder) record(testName string, res Result) error {
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
		res.ExternalIterationID = IterationID(t.occ[key], t.cwd, testName, res.CaseTitle)
	}
	b, _, err := t.enc.encode(&res)
	if err != nil {
		return err
	}
	t.seq++
	arr := make([]byte, 0, len(b)+2)
	arr = append(append(append(arr, '['), b...), ']')
	t.sp.write(spoolRecord{Kind: "chunk", Seq: t.seq}, arr)
	return t.sp.err
}

func (t *tbRecorder) open() error {
	dir := DefaultSpoolDir(os.Getenv)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	ext, err := sharedRunID(dir)
	if err != nil {
		return err
	}
	run := RunParams{SuiteName: orStr(os.Getenv(EnvSuite), "go test"), ExternalRunID: ext, Framework: "go",
		CI: DetectCI(os.Getenv)}
	sp, err := openSpool(dir, orStr(os.Getenv(EnvProject), DefaultProject), run)
	if err != nil {
		return err
	}
	t.sp = sp
	t.cwd, _ = os.Getwd()
	var keyFn func(string) string
	if key := os.Getenv("PROJECTOPS_API_KEY"); key != "" {
		keyFn = func(s string) string { return strings.ReplaceAll(s, key, Redacted) }
	}
	t.enc = newEncoder(redactor{key: keyFn}, nil, DefaultChunkBytes)
	return nil
}

// sharedRunID returns the run id for this invocation: explicit or from CI
// when available, else the one in dir/RunIDFile, created atomically by the
// first test process.
func sharedRunID(dir string) (string, error) {
	if id := ExternalRunID("", os.Getenv); !strings.HasPrefix(id, "local-") {
		return id, nil
	}
	path := filepath.Join(dir, RunIDFile)
	if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
		return strings.TrimSpace(string(b)), nil
	}
	var r [8]byte
	_, _ = rand.Read(r[:])
	id := "local-" + hex.EncodeToString(r[:])
	tmp := path + "." + hex.EncodeToString(r[:])
	if err := os.WriteFile(tmp, []byte(id+"\n"), 0o600); err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	if err := os.Link(tmp, path); err != nil && !errors.Is(err, fs.ErrExist) {
		return "", err
	}
	b, err := os.ReadFile(path) // another process may have won the race
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(b)), nil
}

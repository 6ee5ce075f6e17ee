package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/projectops/projectops-go/internal/apierr"
)

// ReadJest streams a Jest JSON report (jest --json) and records one result
// per assertion, titled with its full name. Only "passed" and "failed"
// assertions are sent; skipped, pending, todo and disabled ones are counted
// (see SourceStats). Files are decoded one at a time. ctx is checked
// between keys and array elements; once it has ended, ReadJest returns
// its error.
func ReadJest(ctx context.Context, r io.Reader, rec Recorder) (SourceStats, error) {
	if ctx == nil {
		return SourceStats{}, apierr.NilContext()
	}
	return readJestLike(ctx, r, rec, "jest")
}

// ReadVitest streams a Vitest JSON report (vitest --reporter=json), which
// has Jest's shape; of testResults and the older "files" task tree, which
// hold the same tests, the first in the report is read, and the other only
// when the first gave no passed or failed test. ctx is checked as
// ReadJest does.
func ReadVitest(ctx context.Context, r io.Reader, rec Recorder) (SourceStats, error) {
	if ctx == nil {
		return SourceStats{}, apierr.NilContext()
	}
	return readJestLike(ctx, r, rec, "vitest")
}

type jestReader struct {
	ctx    context.Context
	dec    *json.Decoder
	rec    Recorder
	format string
	st     SourceStats
	occ    map[string]int
	cwd    string
}

type jestAssertion struct {
	AncestorTitles  []string `json:"ancestorTitles"`
	Title           string   `json:"title"`
	FullName        string   `json:"fullName"`
	Status          string   `json:"status"`
	Duration        *float64 `json:"duration"`
	FailureMessages []string `json:"failureMessages"`
}

func readJestLike(ctx context.Context, r io.Reader, rec Recorder, format string) (SourceStats, error) {
	j := &jestReader{ctx: ctx, dec: json.NewDecoder(r), rec: rec, format: format, occ: map[string]int{}}
	j.cwd, _ = os.Getwd()
	// Vitest writes testResults; the older files tree holds the same
	// tests. One of them is read, both streamed: the first in the report,
	// and the second only when the first gave no passed or failed test
	// (the service's reporter prefers testResults, which Vitest writes
	// first); the second then replaces the first's counts of skips.
	var first string
	second := func(read func() error) error {
		if j.results() > 0 {
			return j.skip()
		}
		saved := j.st
		j.st = SourceStats{}
		err := read()
		if j.st.Events == 0 { // nothing there: the first's skips stand
			j.st = saved
		}
		return err
	}
	err := j.object(func(key string) error {
		var read func() error
		switch key {
		case "testResults":
			read = func() error { return j.array(j.file) }
		case "files":
			read = func() error { return j.array(j.vitestFile) }
		default:
			return j.skip()
		}
		switch first {
		case "":
			first = key
			return read()
		case key: // a repeated key: read as before
			return read()
		}
		return second(read)
	})
	if err != nil {
		var fe *FormatError
		if errors.As(err, &fe) || ctx.Err() != nil || !isDecodeErr(err) {
			return j.st, err
		}
		return j.st, &FormatError{Format: format, Offset: j.dec.InputOffset(), Err: err}
	}
	return j.st, nil
}

// results counts the tests read that passed or failed.
func (j *jestReader) results() int { return j.st.Passed + j.st.Failed }

// isDecodeErr tells decoding failures from a Recorder's errors.
func isDecodeErr(err error) bool {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	return errors.As(err, &se) || errors.As(err, &te) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, io.EOF) || errors.Is(err, errShape)
}

var errShape = errors.New("unexpected JSON shape")

// file reads one testResults entry. Jest writes assertionResults before
// name, so a file's assertions are held until its object ends. A file
// that failed with no failing test in it (it did not compile or load:
// "Test suite failed to run") is one failing result named after the file,
// with the file's message: its failure would otherwise not show at all.
func (j *jestReader) file() error {
	var name, status, message string
	var pending []jestAssertion
	err := j.object(func(key string) error {
		switch key {
		case "name", "testFilePath":
			return j.dec.Decode(&name)
		case "status":
			return j.dec.Decode(&status)
		case "message", "failureMessage":
			var m *string // null in some reporters
			if err := j.dec.Decode(&m); err != nil || m == nil {
				return err
			}
			message = *m
			return nil
		case "assertionResults":
			return j.array(func() error {
				var a jestAssertion
				if err := j.dec.Decode(&a); err != nil {
					return err
				}
				pending = append(pending, a)
				return nil
			})
		}
		return j.skip()
	})
	if err != nil {
		return err
	}
	if status == "failed" && !slices.ContainsFunc(pending, func(a jestAssertion) bool { return a.Status == "failed" || a.Status == "fail" }) {
		if err := j.emit(name, j.relative(name)+" (failed to run)", "failed", 0, orStr(message, "the test file failed")); err != nil {
			return err
		}
	}
	for _, a := range pending {
		// Without a fullName: the non-empty ancestor titles and title,
		// else the file's name, as the service's reporter titles it.
		title := a.FullName
		if title == "" {
			parts := slices.DeleteFunc(append(slices.Clone(a.AncestorTitles), a.Title), func(p string) bool { return p == "" })
			title = strings.TrimSpace(strings.Join(parts, " "))
			if title == "" {
				title = j.relative(name)
			}
		}
		var ms float64
		if a.Duration != nil {
			ms = *a.Duration
		}
		if err := j.emit(name, title, a.Status, ms, strings.Join(a.FailureMessages, "\n")); err != nil {
			return err
		}
	}
	return nil
}

// emit records one test. Status "passed"/"pass" passes; a skip ("skipped",
// "skip", "pending", "todo", "disabled") is counted; anything else fails,
// a missing or unknown status included, as the service's reporter has it
// (an assertion without a status, with failure messages, must not vanish).
func (j *jestReader) emit(file, title, status string, ms float64, failure string) error {
	j.st.Events++
	if strings.TrimSpace(title) == "" { // the service refuses a blank title
		title = "(unnamed test)"
	}
	var passed bool
	switch status {
	case "passed", "pass":
		passed = true
		j.st.Passed++
	case "skipped", "skip", "pending", "todo", "disabled":
		j.st.Skipped++
		return nil
	default:
		j.st.Failed++
	}
	file = j.relative(file)
	j.occ[file+"\x00"+title]++
	res := Result{CaseTitle: title, Passed: passed, DurationMs: ms,
		ExternalIterationID: IterationID(j.occ[file+"\x00"+title], j.format, file, title)}
	if file != "" {
		res.Metadata = map[string]any{"file": file}
	}
	if !passed {
		res.Error = cutRedactor(j.rec).cutMiddle(failure, maxFailureText)
	}
	return j.rec.Record(j.ctx, res)
}

// relative trims the working directory from absolute test file paths, so
// ids do not depend on where the checkout lives.
func (j *jestReader) relative(file string) string {
	if j.cwd != "" && filepath.IsAbs(file) {
		if rel, err := filepath.Rel(j.cwd, file); err == nil && !strings.HasPrefix(rel, "..") {
			return filepath.ToSlash(rel)
		}
	}
	return file
}

// object reads a JSON object, calling field for each key with the decoder
// positioned at its value (which field must consume).
func (j *jestReader) object(field func(key string) error) error {
	if err := j.delim('{'); err != nil {
		return err
	}
	for j.dec.More() {
		if err := ctxDone(j.ctx); err != nil {
			return err
		}
		tok, err := j.dec.Token()
		if err != nil {
			return err
		}
		key, ok := tok.(string)
		if !ok {
			return errShape
		}
		if err := field(key); err != nil {
			return err
		}
	}
	return j.delim('}')
}

func (j *jestReader) array(elem func() error) error {
	if err := j.delim('['); err != nil {
		return err
	}
	for j.dec.More() {
		if err := ctxDone(j.ctx); err != nil {
			return err
		}
		if err := elem(); err != nil {
			return err
		}
	}
	return j.delim(']')
}

func (j *jestReader) delim(want json.Delim) error {
	tok, err := j.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != want {
		return errShape
	}
	return nil
}

// skip consumes one value without keeping it.
func (j *jestReader) skip() error {
	depth := 0
	for {
		tok, err := j.dec.Token()
		if err != nil {
			return err
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}

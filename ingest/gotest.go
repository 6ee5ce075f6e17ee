package ingest

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"

	"github.com/projectops/projectops-go/internal/apierr"
)

// GoTestOptions configure ReadGoTest.
type GoTestOptions struct {
	// Passthrough receives every input line that is not a test2json event
	// (build noise, a stray print), unchanged. Nil drops them.
	Passthrough io.Writer
	// Output, when set, receives every event's output text in order: what
	// go test -v would have printed.
	Output io.Writer
	// OnEvent, when set, sees every decoded event before it is handled
	// (the CLI renders go test's plain output from them).
	OnEvent func(GoTestEvent)
	// OutputHead and OutputTail bound the output kept per running test
	// (defaults DefaultOutputHead and DefaultOutputTail); a failing test's
	// Error is that head and tail with a truncation marker between. 4 KiB
	// more is held beyond each, for redaction before the cut, so a running
	// test (a package, a build) holds at most OutputHead + OutputTail +
	// 8 KiB of output (OutputHead + 4 KiB when a negative OutputTail keeps
	// no tail).
	OutputHead, OutputTail int
}

// GoTestEvent is a decoded test2json event (Output unescaped).
type GoTestEvent struct {
	Action, Package, Test, Output, ImportPath string
	Elapsed                                   float64
}

// maxLine bounds one input line; a longer line is passed through in pieces.
const maxLine = 1 << 20

// ReadGoTest reads a go test -json (test2json) stream and records one
// result per test or subtest outcome: pass and fail are sent, skip is only
// counted (see SourceStats). Failures outside any test become failing
// iterations too: a build failure (titled "<pkg> [build failed]"), and a
// package that fails with tests still running (panic, timeout) fails each
// of those tests with the package's output; a package failing for no test
// at all is "<pkg> [package]". A stream that ends with tests still running
// fails them as incomplete; one that ends between two tests of a package
// that started and never reported its outcome fails that package,
// "<pkg> [package]" (its later tests never ran). A test still running
// when its package ends (test2json misses a "--- PASS" line glued to
// output printed without a final newline, and sends no event) takes the
// outcome and time of that line when one ends an output line of its own,
// of a subtest's or of its package's (a FAIL line stays); else it fails,
// under a passing package as never reported; one that -count runs again
// before its end came is ended so at that run, never hidden by it. A
// benchmark passes by its result line, or one below it; with none (its
// sub-benchmarks filtered out or skipped) it gets no result when its
// package passes, as test2json gives a benchmark no pass event.
// Non-JSON lines are passed through, never fatal: plain go test output
// (run without -json) is all passthrough, so a caller that must not
// report an empty run checks SourceStats.Events (or, as projectops report
// does, creates its Reporter at the first result: a Reporter closed with
// none still reports a run).
// Titles are "<import path>.<Test/sub>"; ids are derived from package, test
// name and occurrence (-count=N repeats a name), and for a package run
// again later in the stream (gotestsum --rerun-fails), the run's number: a
// rerun's results are stored beside the first run's.
//
// ReadGoTest checks ctx between lines: once it has ended, it reads no
// further and returns ctx's error (tests still running are not failed as
// incomplete: the stream was not read to its end). A read blocked on a
// stream that stays idle is not interrupted: it ends when r yields data
// or an error, so close r (or end the process writing it, as
// exec.CommandContext does) to end it.
func ReadGoTest(ctx context.Context, r io.Reader, rec Recorder, opt GoTestOptions) (SourceStats, error) {
	if ctx == nil {
		return SourceStats{}, apierr.NilContext()
	}
	g := newGoReader(rec, opt)
	rd := bufio.NewReaderSize(r, 64<<10)
	var long []byte // a line longer than the reader's buffer
	for {
		if err := ctxDone(ctx); err != nil {
			return g.stats, err
		}
		line, err := rd.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long, line...)
			if len(long) > maxLine {
				g.passthrough(long)
				long = long[:0]
			}
			continue
		}
		if len(long) > 0 {
			line = append(long, line...)
			long = long[:0]
		}
		if len(line) > 0 {
			if perr := g.line(ctx, line); perr != nil {
				return g.stats, perr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				if cerr := ctxDone(ctx); cerr != nil {
					return g.stats, cerr // ended with ctx, perhaps by it: not a complete stream
				}
				return g.stats, g.end(ctx)
			}
			return g.stats, err
		}
	}
}

// goReader is the state of one stream: running tests and packages.
type goReader struct {
	rec   Recorder
	opt   GoTestOptions
	stats SourceStats
	ev    goEvent
	text  []byte // scratch for unescaped output
	pkgs  map[string]*goPackage
	// runs counts the ended runs of each package: all that is kept of a
	// package once it ends, so that a rerun in the same stream
	// (gotestsum --rerun-fails) gets ids of its own.
	runs  map[string]int
	build map[string]*boundedOutput // build output by import path
	free  []*goTest
}

type goPackage struct {
	name    string
	run     int // earlier runs of the package in this stream
	running map[string]*goTest
	occ     map[string]int
	failed  int  // tests that failed in this package run
	started bool // its start event was seen: an outcome event must follow
	out     boundedOutput
}

type goTest struct {
	name    string
	out     boundedOutput
	benched bool // a benchmark that printed its result, or one below it did: it passed
	// bench is how far a benchmark's output line so far goes in a result
	// line, when test2json split it across output events (see benchOutput).
	bench benchState
	// framed is the outcome ("pass", "fail", "skip") and framedSecs the
	// elapsed time its own --- line gave when test2json missed that line
	// (see framedEnd); "" when none was seen.
	framed     string
	framedSecs float64
}

func newGoReader(rec Recorder, opt GoTestOptions) *goReader {
	if opt.OutputHead == 0 {
		opt.OutputHead = DefaultOutputHead
	}
	if opt.OutputTail == 0 {
		opt.OutputTail = DefaultOutputTail
	}
	return &goReader{rec: rec, opt: opt, pkgs: map[string]*goPackage{}, runs: map[string]int{}, build: map[string]*boundedOutput{}}
}

func (g *goReader) passthrough(line []byte) {
	g.stats.Passthrough++
	if g.opt.Passthrough != nil {
		_, _ = g.opt.Passthrough.Write(line)
	}
}

func (g *goReader) line(ctx context.Context, line []byte) error {
	trimmed := bytes.TrimRight(line, "\r\n")
	if len(trimmed) == 0 || trimmed[0] != '{' || !parseGoEvent(trimmed, &g.ev) {
		g.passthrough(line)
		return nil
	}
	g.stats.Events++
	ev := &g.ev
	g.text = g.text[:0]
	if len(ev.output) > 0 {
		if ev.outputEscaped {
			g.text = appendUnescaped(g.text, ev.output)
		} else {
			g.text = append(g.text, ev.output...)
		}
		if g.opt.Output != nil {
			_, _ = g.opt.Output.Write(g.text)
		}
	}
	if g.opt.OnEvent != nil {
		g.opt.OnEvent(GoTestEvent{Action: string(ev.action), Package: string(ev.pkg), Test: string(ev.test),
			Output: string(g.text), ImportPath: string(ev.importPath), Elapsed: ev.elapsed})
	}
	switch string(ev.action) {
	case "build-output":
		o := g.build[string(ev.importPath)]
		if o == nil {
			o = &boundedOutput{}
			g.build[string(ev.importPath)] = o
		}
		o.write(g.text, g.opt.OutputHead, g.opt.OutputTail)
		return nil
	case "build-fail":
		return nil // reported by the package's fail event (FailedBuild)
	}
	if len(ev.pkg) == 0 {
		return nil
	}
	p := g.pkgs[string(ev.pkg)]
	if p == nil {
		p = &goPackage{name: string(ev.pkg), running: map[string]*goTest{}, occ: map[string]int{}}
		p.run = g.runs[p.name]
		g.pkgs[p.name] = p
	}
	if len(ev.test) == 0 {
		return g.packageEvent(ctx, p)
	}
	t := p.running[string(ev.test)]
	switch string(ev.action) {
	case "run":
		if t != nil {
			if err := g.settleRerun(ctx, p, t); err != nil {
				return err
			}
		}
		t = g.newTest(string(ev.test))
		p.running[t.name] = t
	case "output":
		switch {
		case t == nil:
			// Output of a test that is not running (it already ended, or
			// the stream began after its run event) is the package's:
			// tracking it as running would fail it if the package fails.
			p.out.write(g.text, g.opt.OutputHead, g.opt.OutputTail)
			g.framedEnd(p, nil, g.text)
		case !isFraming(g.text):
			t.out.write(g.text, g.opt.OutputHead, g.opt.OutputTail)
			if isBenchmark(t.name) {
				benchOutput(p, t, g.text)
			}
			g.framedEnd(p, t, g.text)
		}
	case "pass", "fail", "skip":
		name := string(ev.test)
		if t != nil {
			delete(p.running, name)
		}
		err := g.outcome(ctx, p, name, string(ev.action), ev.elapsed, t, "")
		g.release(t)
		return err
	}
	return nil
}

// isFraming reports test2json's own framing lines, which need not be kept.
func isFraming(b []byte) bool {
	return bytes.HasPrefix(b, []byte("=== RUN")) || bytes.HasPrefix(b, []byte("=== PAUSE")) ||
		bytes.HasPrefix(b, []byte("=== CONT")) || bytes.HasPrefix(b, []byte("=== NAME"))
}

func (g *goReader) newTest(name string) *goTest {
	if n := len(g.free); n > 0 {
		t := g.free[n-1]
		g.free = g.free[:n-1]
		t.name = name
		return t
	}
	return &goTest{name: name}
}

func (g *goReader) release(t *goTest) {
	if t != nil && len(g.free) < 64 {
		t.out.reset()
		t.benched = false
		t.bench = benchStart
		t.framed, t.framedSecs = "", 0
		g.free = append(g.free, t)
	}
}

// outcome records one test's result; extra is appended to a failure's
// output (the package's output when the package failed around it).
func (g *goReader) outcome(ctx context.Context, p *goPackage, name, action string, elapsed float64, t *goTest, extra string) error {
	if action == "skip" {
		g.stats.Skipped++
		return nil
	}
	p.occ[name]++
	res := Result{CaseTitle: p.name + "." + name, Passed: action == "pass", DurationMs: elapsed * 1000,
		ExternalIterationID: p.iterationID(name),
		Metadata:            map[string]any{"package": p.name, "test": name}}
	if !res.Passed {
		g.stats.Failed++
		p.failed++
		if t != nil {
			res.Error = t.out.text(cutRedactor(g.rec))
		}
		res.Error += extra
	} else {
		g.stats.Passed++
	}
	return g.rec.Record(ctx, res)
}

// iterationID is the id of the latest occurrence of name (a test, or a
// package failure's title) in p: from package, name and occurrence, plus
// the run's number for a rerun of the package, whose results the service
// would otherwise skip as the first run's.
func (p *goPackage) iterationID(name string) string {
	if p.run == 0 {
		return IterationID(p.occ[name], p.name, name)
	}
	return IterationID(p.occ[name], p.name, name, "run "+strconv.Itoa(p.run+1))
}

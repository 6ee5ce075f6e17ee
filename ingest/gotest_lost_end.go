package ingest

import (
	"bytes"
	"context"
	"math"
	"sort"
	"strconv"
)

// noEndReported is the failure of a test whose package ended while it ran
// with no word of its outcome anywhere.
const noEndReported = "\n--- go test never reported this test's end (test2json sends no pass or fail event when the test's" +
	" --- PASS or --- FAIL line is glued to output without a final newline); its package ended without it\n"

// noEndBeforeRerun is the failure of a test run again (-count=N) with no
// word of how its earlier run ended.
const noEndBeforeRerun = "\n--- go test never reported this test's end (test2json sends no pass or fail event when the test's" +
	" --- PASS or --- FAIL line is glued to output without a final newline); it ran again without it\n"

// framedEnd notes the outcome a test's own "--- PASS: <name> (0.00s)" line
// gives, when it ends text: test2json reads that line only at a line's
// start, so when a test prints without a final newline the line is glued
// to that text ("partial--- FAIL: TestBad (0.00s)") and test2json sends
// no pass or fail event for it. Such a line lands in whichever test
// test2json then took for the running one: the test's own output, a
// subtest's (a parent's line), or the package's (t nil: test2json took
// the line for a test that was not running). Only there is it taken, for
// the running test of exactly that name: another test's output may quote
// such a line (a log of golden text), and a FAIL, once seen, stays. A
// test that does get its event ends with it; the note is only read when
// its package ends with the test still running (see endUnreported). The
// ordinary event pays one suffix check.
func (g *goReader) framedEnd(p *goPackage, t *goTest, text []byte) {
	line, ok := bytes.CutSuffix(text, []byte("s)\n"))
	if !ok {
		return
	}
	open := bytes.LastIndex(line, []byte(" ("))
	if open < 0 {
		return
	}
	secs, err := strconv.ParseFloat(string(line[open+2:]), 64)
	if err != nil || !(secs >= 0) || math.IsInf(secs, 1) {
		return
	}
	// A test's name holds no space (go test writes a subtest's as _).
	head := line[:open]
	sp := bytes.LastIndexByte(head, ' ')
	name, head := head[sp+1:], head[:sp+1]
	var action string
	switch {
	case bytes.HasSuffix(head, []byte("--- PASS: ")):
		action = "pass"
	case bytes.HasSuffix(head, []byte("--- FAIL: ")):
		action = "fail"
	case bytes.HasSuffix(head, []byte("--- SKIP: ")):
		action = "skip"
	default:
		return
	}
	own := t
	if t == nil || t.name != string(name) {
		own = p.running[string(name)]
	}
	if own == nil || own.framed == "fail" || t != nil && t != own && !isBelow(t.name, name) {
		return
	}
	own.framed, own.framedSecs = action, secs
}

// isBelow reports whether test sub is a subtest of test name, at any depth.
func isBelow(sub string, name []byte) bool {
	return len(sub) > len(name) && sub[len(name)] == '/' && sub[:len(name)] == string(name)
}

// endUnreported records, in name order, the tests still running in p
// whose outcome is known without their event: the one their own --- line
// gave (framedEnd), else a pass for a benchmark that printed its result
// (test2json never sends one a pass event). It forgets them; what is left
// running had no word of its outcome.
func (g *goReader) endUnreported(ctx context.Context, p *goPackage) error {
	var names []string
	for n, t := range p.running {
		if a, _ := t.lostEnd(); a != "" {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		t := p.running[n]
		delete(p.running, n)
		action, secs := t.lostEnd()
		if err := g.outcome(ctx, p, n, action, secs, t, ""); err != nil {
			return err
		}
		g.release(t)
	}
	return nil
}

// lostEnd is the outcome of t known without its event (see
// endUnreported), "" when there is none.
func (t *goTest) lostEnd() (action string, secs float64) {
	switch {
	case t.framed != "":
		return t.framed, t.framedSecs
	case t.benched:
		return "pass", 0
	}
	return "", 0
}

// settleRerun ends t, a test test2json starts again (-count=N) with no
// word of its end, as its package's end would: with the outcome known
// without its event, else failed as never reported (a benchmark, which
// never gets an end event, is dropped). Reusing t for the new run would
// fold a lost failure into the next run's pass.
func (g *goReader) settleRerun(ctx context.Context, p *goPackage, t *goTest) error {
	delete(p.running, t.name)
	defer g.release(t)
	action, secs := t.lostEnd()
	switch {
	case action != "":
		return g.outcome(ctx, p, t.name, action, secs, t, "")
	case isBenchmark(t.name):
		return nil
	}
	return g.outcome(ctx, p, t.name, "fail", 0, t, noEndBeforeRerun)
}

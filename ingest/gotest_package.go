package ingest

import (
	"context"
	"sort"
)

// packageEvent handles a package's own outcome.
func (g *goReader) packageEvent(ctx context.Context, p *goPackage) error {
	ev := &g.ev
	switch string(ev.action) {
	case "start":
		p.started = true
		return nil
	case "output":
		p.out.write(g.text, g.opt.OutputHead, g.opt.OutputTail)
		g.framedEnd(p, nil, g.text)
		return nil
	case "pass", "skip":
		// Tests left running under a passing package: test2json lost
		// their outcome. Each takes the one its own --- line or result
		// line gave; one with none fails, as it never said it finished
		// (dropping it would hide a failure a TestMain's os.Exit(0) hid).
		// A benchmark with none is dropped: test2json never sends one a
		// pass event, so a missing end says nothing against it.
		g.endPackage(p)
		if err := g.endUnreported(ctx, p); err != nil {
			return err
		}
		g.dropBenchmarks(p)
		return g.failRunning(ctx, p, noEndReported)
	case "fail":
	default:
		return nil
	}
	g.endPackage(p)
	if fb := string(ev.failedBuild); fb != "" {
		msg := p.out.text(cutRedactor(g.rec))
		// Kept for the stream: every package that imports a broken one
		// fails with its compiler error, printed once.
		if o := g.build[fb]; o != nil {
			msg = o.text(cutRedactor(g.rec)) + msg
		}
		return g.packageFailure(ctx, p, " [build failed]", msg, ev.elapsed)
	}
	if err := g.endUnreported(ctx, p); err != nil {
		return err
	}
	if len(p.running) > 0 {
		g.stats.PackageFailures += len(p.running)
		return g.failRunning(ctx, p, "\n--- package "+p.name+" failed while this test was running:\n"+p.out.text(cutRedactor(g.rec)))
	}
	if p.failed == 0 {
		return g.packageFailure(ctx, p, " [package]", p.out.text(cutRedactor(g.rec)), ev.elapsed)
	}
	return nil
}

// endPackage forgets p's state but its run count: a later run of the
// package in the stream is a rerun.
func (g *goReader) endPackage(p *goPackage) {
	delete(g.pkgs, p.name)
	g.runs[p.name]++
}

func (g *goReader) packageFailure(ctx context.Context, p *goPackage, suffix, msg string, elapsed float64) error {
	g.stats.PackageFailures++
	g.stats.Failed++
	title := p.name + suffix
	p.occ[title]++
	return g.rec.Record(ctx, Result{CaseTitle: title, Passed: false, DurationMs: elapsed * 1000, Error: msg,
		ExternalIterationID: p.iterationID(title),
		Metadata:            map[string]any{"package": p.name, "packageFailure": true}})
}

// failRunning fails every test still running in p, in name order, extra
// saying why (a caller failing them for their package's failure counts
// them in PackageFailures).
func (g *goReader) failRunning(ctx context.Context, p *goPackage, extra string) error {
	names := make([]string, 0, len(p.running))
	for n := range p.running {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := g.outcome(ctx, p, n, "fail", 0, p.running[n], extra); err != nil {
			return err
		}
	}
	return nil
}

// end fails whatever was still running when the stream ended: the tests
// still running, or, when none was and none had failed, a package that
// started (go test sends its outcome after that, always) as
// "<pkg> [package]", since its later tests never ran: a stream cut between
// two tests must not pass. Without the start event (a stream filtered to
// test events, say) an unended package is not taken for a cut one. A test
// whose outcome is known without its event (endUnreported) takes it, as
// when its package ends.
func (g *goReader) end(ctx context.Context) error {
	names := make([]string, 0, len(g.pkgs))
	for n := range g.pkgs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := g.pkgs[n]
		if err := g.endUnreported(ctx, p); err != nil {
			return err
		}
		var err error
		switch {
		case len(p.running) > 0:
			g.stats.PackageFailures += len(p.running)
			err = g.failRunning(ctx, p, "\n--- the go test stream ended before this test finished\n")
		case p.started && p.failed == 0:
			err = g.packageFailure(ctx, p, " [package]", p.out.text(cutRedactor(g.rec))+"\n--- the go test stream ended before the package finished\n", 0)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

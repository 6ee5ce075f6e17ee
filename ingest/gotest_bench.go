package ingest

import (
	"strings"
)

// A benchmark's result line is its name (with the -N GOMAXPROCS suffix
// when N is not 1), iterations and one or more "value unit" pairs
// ("BenchmarkX-2 \t 1000\t 245.0 ns/op", or "... 42.00 widgets/op" when
// b.ReportMetric replaced ns/op): the pattern
// `^Benchmark\S*\s+\d+\s+[-+.0-9NaInf]+ \S` (a value as testing prints a
// float: digits, a point, a sign, NaN or Inf), matched by benchScan one
// byte at a time so that a line split across output events needs no
// buffer. Each part of the pattern ends where a byte of another class
// begins, so one state per position in it decides, exactly as the whole
// line would. benchState is that position, kept in goTest between events.
type benchState uint8

// benchStart is a line's start; 1 to 8: that much of "Benchmark" seen.
const benchStart benchState = 0

const (
	benchName    = benchState(len(bword)) + iota // in the name (\S*)
	benchPad                                     // padding before the iterations (\s+)
	benchIters                                   // the iterations (\d+)
	benchGap                                     // between iterations and value (\s+)
	benchValue                                   // the first value ([-+.0-9NaInf]+)
	benchSep                                     // the space between value and unit
	benchFound                                   // the unit's first byte: the line is a result line
	benchNotLine                                 // not one (its rest is ignored)
	benchNotWord                                 // not one: it does not start with "Benchmark"
)

const bword = "Benchmark"

// benchOutput looks for benchmark t's result line in its output text:
// test2json sends no pass event for a benchmark, so that line is how it
// says it passed. The testing package prints the line's name when the
// benchmark starts measuring and its figures when it ends, and test2json
// (go1.26) may flush the two as separate events ("BenchmarkX-2 \t", then
// "1\t 632.0 ns/op\n"); it also cuts any line longer than 1 KiB into
// events (a long sub-benchmark name, or the padding testing adds to every
// name after it). So the line is scanned as it comes, in t.bench, and
// recognised at any length with nothing kept but that state.
func benchOutput(p *goPackage, t *goTest, text []byte) {
	if len(text) == 0 {
		return
	}
	t.bench = benchScan(t.bench, text)
	if t.bench == benchFound && !t.benched {
		t.benched = true
		// Every ancestor passes with it (BenchmarkN and BenchmarkN/x for
		// BenchmarkN/x/y): test2json sends none of them a pass event. The
		// climb stops at one already marked, or not running (test2json
		// runs a parent first), so a deep name costs its ancestors' names
		// once, not once per result line.
		for i := strings.LastIndexByte(t.name, '/'); i > 0; i = strings.LastIndexByte(t.name[:i], '/') {
			a := p.running[t.name[:i]]
			if a == nil || a.benched {
				break
			}
			a.benched = true
		}
	}
	// A line ends with its newline; one that does not start with
	// "Benchmark" is dropped at once, as before: the next event is read
	// as a line's start.
	if text[len(text)-1] == '\n' || t.bench == benchNotWord {
		t.bench = benchStart
	}
}

// benchScan returns the state after text, from state s.
func benchScan(s benchState, text []byte) benchState {
	for _, c := range text {
		switch s {
		case benchName:
			if isSpace(c) {
				s = benchPad
			}
		case benchPad, benchGap:
			switch {
			case isSpace(c):
			case s == benchPad && isDigit(c):
				s = benchIters
			case s == benchGap && isValueByte(c):
				s = benchValue
			default:
				return benchNotLine
			}
		case benchIters:
			switch {
			case isDigit(c):
			case isSpace(c):
				s = benchGap
			default:
				return benchNotLine
			}
		case benchValue:
			switch {
			case isValueByte(c):
			case c == ' ':
				s = benchSep
			default:
				return benchNotLine
			}
		case benchSep:
			if isSpace(c) {
				return benchNotLine
			}
			return benchFound
		case benchFound, benchNotLine, benchNotWord: // the rest changes nothing
			return s
		default: // in "Benchmark"
			if c != bword[s] {
				return benchNotWord
			}
			s++
		}
	}
	return s
}

// isValueByte reports a byte of a metric's value as testing prints it
// (%f of a float64: digits, '.', a sign, NaN, +Inf, -Inf).
func isValueByte(c byte) bool {
	switch c {
	case '.', '-', '+', 'N', 'a', 'I', 'n', 'f':
		return true
	}
	return isDigit(c)
}

// isSpace reports whether c is a regexp \s: ASCII space, \t, \n, \f or \r.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isBenchmark reports a benchmark or sub-benchmark by its name as
// test2json gives it.
func isBenchmark(name string) bool { return strings.HasPrefix(name, bword) }

// dropBenchmarks forgets the benchmarks still running in p: one that
// printed no result line, nor had one below it, ran nothing measured
// (-bench filtered out its sub-benchmarks, or they all called b.Skip).
func (g *goReader) dropBenchmarks(p *goPackage) {
	for n, t := range p.running {
		if isBenchmark(n) {
			delete(p.running, n)
			g.release(t)
		}
	}
}

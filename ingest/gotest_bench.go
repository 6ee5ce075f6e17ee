package ingest

import (
	"strings"
)

// A benchmark's result line is its name, iterations and ns/op
// ("BenchmarkX-2   1000   245 ns/op"): the pattern
// `^Benchmark\S*\s+\d+\s+[0-9.]+ ns/op`, matched by benchScan one byte at
// a time so that a line split across output events needs no buffer. Each
// part of the pattern ends where a byte of another class begins, so one
// state per position in it decides, exactly as the whole line would.
// benchState is that position, kept in goTest between events.
type benchState uint8

// benchStart is a line's start; 1 to 8: that much of "Benchmark" seen.
const benchStart benchState = 0

const (
	benchName  = benchState(len(bword)) + iota // in the name (\S*)
	benchPad                                   // padding before the iterations (\s+)
	benchIters                                 // the iterations (\d+)
	benchGap                                   // between iterations and figure (\s+)
	benchFig                                   // the ns/op figure ([0-9.]+)
	benchUnit                                  // benchUnit+k-1: k bytes of " ns/op" seen, 1 ≤ k < len(bunit)
)

const (
	benchFound   = benchUnit + benchState(len(bunit)) - 1 // the line is a result line
	benchNotLine = benchFound + 1                         // not one (its rest is ignored)
	benchNotWord = benchFound + 2                         // not one: it does not start with "Benchmark"
)

const (
	bword = "Benchmark"
	bunit = " ns/op"
)

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
	if t.bench == benchFound {
		t.benched = true
		// Every ancestor passes with it (BenchmarkN and BenchmarkN/x for
		// BenchmarkN/x/y): test2json sends none of them a pass event.
		for i := strings.LastIndexByte(t.name, '/'); i > 0; i = strings.LastIndexByte(t.name[:i], '/') {
			if a := p.running[t.name[:i]]; a != nil {
				a.benched = true
			}
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
		switch {
		case s < benchName:
			if c != bword[s] {
				return benchNotWord
			}
			s++
		case s == benchName:
			if isSpace(c) {
				s = benchPad
			}
		case s == benchPad, s == benchGap:
			switch {
			case isSpace(c):
			case s == benchPad && isDigit(c):
				s = benchIters
			case s == benchGap && (isDigit(c) || c == '.'):
				s = benchFig
			default:
				return benchNotLine
			}
		case s == benchIters:
			switch {
			case isDigit(c):
			case isSpace(c):
				s = benchGap
			default:
				return benchNotLine
			}
		case s == benchFig:
			switch {
			case isDigit(c) || c == '.':
			case c == bunit[0]:
				s = benchUnit
			default:
				return benchNotLine
			}
		case s < benchFound: // benchUnit+k
			if c != bunit[s-benchUnit+1] {
				return benchNotLine
			}
			s++
		default: // found, or not a result line: the rest changes nothing
			return s
		}
	}
	return s
}

// isSpace reports whether c is a regexp \s: ASCII space, \t, \n, \f or \r.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

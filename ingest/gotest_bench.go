package ingest

import (
	"regexp"
	"strings"
)

// benchResult is a benchmark's result line: its name, iterations and
// ns/op ("BenchmarkX-2   1000   245 ns/op").
var benchResult = regexp.MustCompile(`^Benchmark\S*\s+\d+\s+[0-9.]+ ns/op`)

// maxBenchPartial bounds the start of a result line kept while waiting for
// its end: a name and its padding. A longer unfinished line is not one.
const maxBenchPartial = 1 << 10

// benchOutput looks for benchmark t's result line in its output text:
// test2json sends no pass event for a benchmark, so that line is how it
// says it passed. The testing package prints the line's name when the
// benchmark starts measuring and its figures when it ends, and test2json
// (go1.26) may flush the two as separate events ("BenchmarkX-2 \t", then
// "1\t 632.0 ns/op\n"), so an unfinished line is kept, bounded, until its
// newline.
func benchOutput(p *goPackage, t *goTest, text []byte) {
	line := text
	if len(t.partial) > 0 {
		if len(t.partial)+len(text) > maxBenchPartial {
			t.partial = t.partial[:0] // checked before appending: the kept buffer stays small
		} else {
			t.partial = append(t.partial, text...)
			line = t.partial
		}
	}
	if benchResult.Match(line) {
		t.benched = true
		if parent, _, ok := strings.Cut(t.name, "/"); ok && p.running[parent] != nil {
			p.running[parent].benched = true
		}
	}
	switch {
	case len(line) == 0 || line[len(line)-1] == '\n' || len(line) > maxBenchPartial || !startsBench(line):
		t.partial = t.partial[:0]
	case len(t.partial) == 0:
		t.partial = append(t.partial, text...) // text is scratch, reused by the next event
	}
}

// startsBench reports whether line starts with "Benchmark", or is the
// start of that word.
func startsBench(line []byte) bool {
	const w = "Benchmark"
	n := min(len(line), len(w))
	return string(line[:n]) == w[:n]
}

package ingest

import (
	"math/rand/v2"
	"regexp"
	"testing"
)

// benchScan decides as the pattern it stands for does on the whole line,
// however the line is cut into events: random edits of result lines
// (bytes of every class the pattern tells apart, invalid UTF-8 and \v,
// which is not \s, included), each cut at random.
func TestBenchScanMatchesPattern(t *testing.T) {
	t.Parallel()
	re := regexp.MustCompile(`^Benchmark\S*\s+\d+\s+[-+.0-9NaInf]+ \S`)
	alpha := []byte("Benchmark \t\n\r\f\v0123456789.ns/opX-+NaInfw\xc3\xa9\xff")
	lines := []string{"BenchmarkX-2 \t 1\t 632.0 ns/op\n", "BenchmarkX 1 2 ns/op", "Benchmark\n1\n. ns/opq",
		"BenchmarkX 1 2  ns/op", "BenchmarkX 1 2 ns/o", "Benchmark 10 .5 ns/op",
		"BenchmarkM-2 \t 1\t 42.00 widgets/op\n", "BenchmarkM 1 -Inf x/op", "BenchmarkM 1 NaN u", "BenchmarkM 1\n"}
	r := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		line := []byte(lines[r.IntN(len(lines))])
		for range r.IntN(4) {
			i := r.IntN(len(line) + 1)
			c := alpha[r.IntN(len(alpha))]
			switch {
			case i == len(line) || r.IntN(3) == 0:
				line = append(line[:i:i], append([]byte{c}, line[i:]...)...)
			case r.IntN(2) == 0:
				line = append(line[:i:i], line[i+1:]...)
			default:
				line[i] = c
			}
		}
		s := benchStart
		for rest := line; len(rest) > 0; {
			n := 1 + r.IntN(len(rest))
			s = benchScan(s, rest[:n])
			rest = rest[n:]
		}
		if got, want := s == benchFound, re.Match(line); got != want {
			t.Fatalf("%q: recognised %v, the pattern says %v (state %d)", line, got, want, s)
		}
	}
}

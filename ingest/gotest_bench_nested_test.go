package ingest_test

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// Real `go test -json -run '^$' -bench . -benchtime 1x` (go1.26.8) of a
// benchmark with two levels of sub-benchmarks, BenchmarkN/x/y. test2json
// sends none of them a pass event: BenchmarkN/x/y passes by its result
// line, and every ancestor with it, the middle level BenchmarkN/x too
// (it was dropped when the package passed, and failed as "the package
// failed while this test was running" when another benchmark failed it).
const nestedBenchHead = `{"Action":"start","Package":"example.com/m/benchnest"}
{"Action":"run","Package":"example.com/m/benchnest","Test":"BenchmarkN"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN","Output":"=== RUN   BenchmarkN\n"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN","Output":"BenchmarkN\n"}
{"Action":"run","Package":"example.com/m/benchnest","Test":"BenchmarkN/x"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN/x","Output":"=== RUN   BenchmarkN/x\n"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN/x","Output":"BenchmarkN/x\n"}
{"Action":"run","Package":"example.com/m/benchnest","Test":"BenchmarkN/x/y"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN/x/y","Output":"=== RUN   BenchmarkN/x/y\n"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN/x/y","Output":"BenchmarkN/x/y\n"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN/x/y","Output":"BenchmarkN/x/y-2         \t"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkN/x/y","Output":"       1\t       672.0 ns/op\n"}
`

const nestedBenchPass = nestedBenchHead + `{"Action":"output","Package":"example.com/m/benchnest","Output":"PASS\n"}
{"Action":"output","Package":"example.com/m/benchnest","Output":"ok  \texample.com/m/benchnest\t0.022s\n"}
{"Action":"pass","Package":"example.com/m/benchnest","Elapsed":0.023}
`

const nestedBenchFail = nestedBenchHead + `{"Action":"run","Package":"example.com/m/benchnest","Test":"BenchmarkZFail"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkZFail","Output":"=== RUN   BenchmarkZFail\n"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkZFail","Output":"BenchmarkZFail\n"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkZFail","Output":"    x_test.go:8: other bench fails\n"}
{"Action":"output","Package":"example.com/m/benchnest","Test":"BenchmarkZFail","Output":"--- FAIL: BenchmarkZFail\n"}
{"Action":"fail","Package":"example.com/m/benchnest","Test":"BenchmarkZFail"}
{"Action":"output","Package":"example.com/m/benchnest","Output":"FAIL\n"}
{"Action":"output","Package":"example.com/m/benchnest","Output":"exit status 1\n"}
{"Action":"output","Package":"example.com/m/benchnest","Output":"FAIL\texample.com/m/benchnest\t0.020s\n"}
{"Action":"fail","Package":"example.com/m/benchnest","Elapsed":0.02}
`

func TestNestedSubBenchmarkPassesEveryAncestor(t *testing.T) {
	t.Parallel()
	const pfx = "example.com/m/benchnest."
	for name, tc := range map[string]struct {
		in   string
		want map[string]bool
	}{
		"package passes": {nestedBenchPass, map[string]bool{
			"BenchmarkN": true, "BenchmarkN/x": true, "BenchmarkN/x/y": true}},
		"another benchmark fails the package": {nestedBenchFail, map[string]bool{
			"BenchmarkN": true, "BenchmarkN/x": true, "BenchmarkN/x/y": true, "BenchmarkZFail": false}},
	} {
		got, _ := readVerdicts(t, strings.NewReader(tc.in), pfx)
		if diff := gocmp.Diff(tc.want, got); diff != "" {
			t.Errorf("%s: verdicts (-want +got):\n%s", name, diff)
		}
	}
}

// Real `go test -json -run '^$' -bench '/y' -benchtime 1x` (go1.26.8):
// BenchmarkN's only sub-benchmark is filtered out by the pattern, so it
// prints no result line and test2json sends it no event (the same when
// every sub-benchmark calls b.Skip); the package passes. It ran nothing
// measured, and a missing end is no evidence against a benchmark: it gets
// no result, where it failed as never reported.
const benchNoSubRun = `{"Action":"start","Package":"example.com/bm"}
{"Action":"output","Package":"example.com/bm","Output":"pkg: example.com/bm\n"}
{"Action":"run","Package":"example.com/bm","Test":"BenchmarkN"}
{"Action":"output","Package":"example.com/bm","Test":"BenchmarkN","Output":"=== RUN   BenchmarkN\n"}
{"Action":"output","Package":"example.com/bm","Test":"BenchmarkN","Output":"BenchmarkN\n"}
{"Action":"run","Package":"example.com/bm","Test":"BenchmarkE"}
{"Action":"output","Package":"example.com/bm","Test":"BenchmarkE","Output":"=== RUN   BenchmarkE\n"}
{"Action":"output","Package":"example.com/bm","Test":"BenchmarkE","Output":"BenchmarkE\n"}
{"Action":"run","Package":"example.com/bm","Test":"BenchmarkE/y"}
{"Action":"output","Package":"example.com/bm","Test":"BenchmarkE/y","Output":"=== RUN   BenchmarkE/y\n"}
{"Action":"output","Package":"example.com/bm","Test":"BenchmarkE/y","Output":"BenchmarkE/y\n"}
{"Action":"output","Package":"example.com/bm","Test":"BenchmarkE/y","Output":"BenchmarkE/y-2 \t       1\t       390.0 ns/op\n"}
{"Action":"output","Package":"example.com/bm","Output":"PASS\n"}
{"Action":"output","Package":"example.com/bm","Output":"ok  \texample.com/bm\t0.035s\n"}
{"Action":"pass","Package":"example.com/bm","Elapsed":0.036}
`

func TestBenchmarkWithNoSubBenchmarkRunGetsNoResult(t *testing.T) {
	t.Parallel()
	got, st := readVerdicts(t, strings.NewReader(benchNoSubRun), "example.com/bm.")
	if want := map[string]bool{"BenchmarkE": true, "BenchmarkE/y": true}; !gocmp.Equal(want, got) || st.Failed != 0 {
		t.Errorf("verdicts %v, stats %+v; want %v", got, st, want)
	}
}

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

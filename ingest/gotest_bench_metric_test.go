package ingest_test

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// Real `go test -json -run '^$' -bench . -benchtime 1x` (go1.26.8): a
// benchmark that replaces the built-in ns/op with its own metric
// (b.ReportMetric(0, "ns/op"); b.ReportMetric(42, "widgets/op")) prints a
// complete result line, "BenchmarkMetric-2 \t 1\t 42.00 widgets/op", and
// passes; another benchmark fails the package. Only a line with ns/op was
// taken for a result line, so BenchmarkMetric was failed as "the package
// failed while this test was running" (and dropped when the package
// passed).
const benchCustomMetric = `{"Action":"start","Package":"example.com/m/benchmetric"}
{"Action":"run","Package":"example.com/m/benchmetric","Test":"BenchmarkMetric"}
{"Action":"output","Package":"example.com/m/benchmetric","Test":"BenchmarkMetric","Output":"=== RUN   BenchmarkMetric\n"}
{"Action":"output","Package":"example.com/m/benchmetric","Test":"BenchmarkMetric","Output":"BenchmarkMetric\n"}
{"Action":"output","Package":"example.com/m/benchmetric","Test":"BenchmarkMetric","Output":"BenchmarkMetric-2   \t       1\t        42.00 widgets/op\n"}
{"Action":"run","Package":"example.com/m/benchmetric","Test":"BenchmarkZFail"}
{"Action":"output","Package":"example.com/m/benchmetric","Test":"BenchmarkZFail","Output":"=== RUN   BenchmarkZFail\n"}
{"Action":"output","Package":"example.com/m/benchmetric","Test":"BenchmarkZFail","Output":"BenchmarkZFail\n"}
{"Action":"output","Package":"example.com/m/benchmetric","Test":"BenchmarkZFail","Output":"    x_test.go:4: other bench fails\n"}
{"Action":"output","Package":"example.com/m/benchmetric","Test":"BenchmarkZFail","Output":"--- FAIL: BenchmarkZFail\n"}
{"Action":"fail","Package":"example.com/m/benchmetric","Test":"BenchmarkZFail"}
{"Action":"output","Package":"example.com/m/benchmetric","Output":"FAIL\n"}
{"Action":"output","Package":"example.com/m/benchmetric","Output":"exit status 1\n"}
{"Action":"output","Package":"example.com/m/benchmetric","Output":"FAIL\texample.com/m/benchmetric\t0.030s\n"}
{"Action":"fail","Package":"example.com/m/benchmetric","Elapsed":0.031}
`

func TestBenchmarkWithCustomMetricOnlyPasses(t *testing.T) {
	t.Parallel()
	got, _ := readVerdicts(t, strings.NewReader(benchCustomMetric), "example.com/m/benchmetric.")
	want := map[string]bool{"BenchmarkMetric": true, "BenchmarkZFail": false}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
}

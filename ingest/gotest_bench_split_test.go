package ingest_test

import (
	"os"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

// Real go test -json -run '^$' -bench . -benchtime 1x output (go1.26.8,
// linux/amd64) of a package whose three benchmarks all pass. test2json
// flushed each benchmark's result line in two output events: the name
// ("BenchmarkOne-2    \t") when the benchmark started measuring, the
// figures ("       1\t       632.0 ns/op\n") when it ended. This is the
// common case, not a corner one: b.Loop benchmarks and any benchmark that
// logs always print the name first. ReadGoTest documents "one result per
// test or subtest outcome" and that a benchmark that printed its result
// passed: each of the three passes.
const benchSplitPass = `{"Action":"start","Package":"example.com/gt/benchok"}
{"Action":"output","Package":"example.com/gt/benchok","Output":"goos: linux\n"}
{"Action":"output","Package":"example.com/gt/benchok","Output":"goarch: amd64\n"}
{"Action":"output","Package":"example.com/gt/benchok","Output":"pkg: example.com/gt/benchok\n"}
{"Action":"output","Package":"example.com/gt/benchok","Output":"cpu: Intel(R) Xeon(R) Processor\n"}
{"Action":"run","Package":"example.com/gt/benchok","Test":"BenchmarkOne"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkOne","Output":"=== RUN   BenchmarkOne\n"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkOne","Output":"BenchmarkOne\n"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkOne","Output":"BenchmarkOne-2    \t"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkOne","Output":"       1\t       632.0 ns/op\n"}
{"Action":"run","Package":"example.com/gt/benchok","Test":"BenchmarkLoop"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLoop","Output":"=== RUN   BenchmarkLoop\n"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLoop","Output":"BenchmarkLoop\n"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLoop","Output":"BenchmarkLoop-2   \t"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLoop","Output":"       1\t       442.0 ns/op\n"}
{"Action":"run","Package":"example.com/gt/benchok","Test":"BenchmarkLogs"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLogs","Output":"=== RUN   BenchmarkLogs\n"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLogs","Output":"BenchmarkLogs\n"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLogs","Output":"    b_test.go:5: hi\n"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLogs","Output":"BenchmarkLogs-2   \t"}
{"Action":"output","Package":"example.com/gt/benchok","Test":"BenchmarkLogs","Output":"       1\t    155620 ns/op\n"}
{"Action":"output","Package":"example.com/gt/benchok","Output":"PASS\n"}
{"Action":"output","Package":"example.com/gt/benchok","Output":"ok  \texample.com/gt/benchok\t0.028s\n"}
{"Action":"pass","Package":"example.com/gt/benchok","Elapsed":0.028}
`

func TestSplitBenchmarkResultLinePasses(t *testing.T) {
	t.Parallel()
	got, st := readVerdicts(t, strings.NewReader(benchSplitPass), "example.com/gt/benchok.")
	for _, title := range []string{"BenchmarkOne", "BenchmarkLoop", "BenchmarkLogs"} {
		if passed, ok := got[title]; !ok || !passed {
			t.Errorf("%s: recorded=%v passed=%v, want one passing result", title, ok, passed)
		}
	}
	if st.Passed != 3 || st.Failed != 0 {
		t.Errorf("stats %+v, want Passed 3 Failed 0", st)
	}
}

// The same split in a package that fails because another benchmark failed
// (testdata/gotest_bench_split.jsonl, real go1.26.8 output): the passing
// benchmarks whose result line was split, BenchmarkLoop and the
// sub-benchmark BenchmarkSubs/s2, pass, and were recorded as failures
// "failed while this test was running" before.
func TestSplitBenchmarkResultLineInFailingPackage(t *testing.T) {
	t.Parallel()
	fh, err := os.Open("testdata/gotest_bench_split.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	got, st := readVerdicts(t, fh, "example.com/gt/fuzzb.")
	want := map[string]bool{"BenchmarkOne": true, "BenchmarkSubs": true, "BenchmarkSubs/s1": true,
		"BenchmarkSubs/s2": true, "BenchmarkFail": false, "BenchmarkLoop": true}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if st.PackageFailures != 0 {
		t.Errorf("stats %+v, want no package failures", st)
	}
}

// A result line split at any point, in more than two events, is still
// the benchmark's result, however long it runs: BenchmarkB's padding is
// 2000 spaces, as testing pads every name after a long one to its length.
// The package fails with no test failing, so it has a result of its own.
func TestSplitBenchmarkResultLineAnyPieces(t *testing.T) {
	t.Parallel()
	ev := func(test, out string) string {
		return `{"Action":"output","Package":"p","Test":"` + test + `","Output":"` + out + `"}` + "\n"
	}
	in := `{"Action":"run","Package":"p","Test":"BenchmarkA"}` + "\n" +
		ev("BenchmarkA", "Bench") + ev("BenchmarkA", "markA-2 \\t  ") + ev("BenchmarkA", "1\\t 63") + ev("BenchmarkA", "2.0 ns/op\\n") +
		`{"Action":"run","Package":"p","Test":"BenchmarkB"}` + "\n" +
		ev("BenchmarkB", "BenchmarkB-2 \\t") + ev("BenchmarkB", strings.Repeat(" ", 2000)) + ev("BenchmarkB", "1\\t 632.0 ns/op\\n") +
		`{"Action":"fail","Package":"p","Elapsed":0.01}` + "\n"
	got, _ := readVerdicts(t, strings.NewReader(in), "")
	if want := map[string]bool{"p.BenchmarkA": true, "p.BenchmarkB": true, "p [package]": false}; !gocmp.Equal(want, got) {
		t.Errorf("got %v, want %v", got, want)
	}
}

// A benchmark's result line passes whole whatever its length, and so it
// does split by test2json (name, then figures) however long its name part
// is: a sub-benchmark named from a long table key (b.Run(longKey, ...))
// is not lost, to fail with its package when another benchmark fails.
func TestSplitBenchmarkLongNamePasses(t *testing.T) {
	t.Parallel()
	sub := "BenchmarkT/" + strings.Repeat("k", 1100)
	pkg := "example.com/gt/benchlong"
	ev := func(action, test, out string) string {
		s := `{"Action":"` + action + `","Package":"` + pkg + `"`
		if test != "" {
			s += `,"Test":"` + test + `"`
		}
		if out != "" {
			s += `,"Output":"` + out + `"`
		}
		return s + "}\n"
	}
	for name, result := range map[string]string{
		"whole": ev("output", sub, sub+`-2 \t       1\t       632.0 ns/op\n`),
		"split": ev("output", sub, sub+`-2 \t`) + ev("output", sub, `       1\t       632.0 ns/op\n`),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			stream := ev("start", "", "") +
				ev("run", "BenchmarkT", "") +
				ev("output", "BenchmarkT", `BenchmarkT\n`) +
				ev("run", sub, "") +
				ev("output", sub, sub+`\n`) +
				result +
				ev("output", "", `PASS\n`) +
				ev("pass", "", "")
			got, _ := readVerdicts(t, strings.NewReader(stream), pkg+".")
			if want := map[string]bool{"BenchmarkT": true, sub: true}; !gocmp.Equal(want, got) {
				t.Errorf("results (-want +got):\n%s", gocmp.Diff(want, got))
			}
		})
	}
}

// Real go1.26.8 output (testdata/gotest_bench_long_name.jsonl) of a
// package whose sub-benchmarks are named 1100 and 2100 bytes long and
// whose BenchmarkFail fails: test2json cuts each long line into 1 KiB
// events, and testing pads BenchmarkT/short's name to the long names'
// length, so its line too comes in two events of which the first is all
// padding. Every benchmark but BenchmarkFail passes.
func TestSplitBenchmarkLongLinesInFailingPackage(t *testing.T) {
	t.Parallel()
	fh, err := os.Open("testdata/gotest_bench_long_name.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	got, st := readVerdicts(t, fh, "example.com/gt/benchlong.")
	want := map[string]bool{"BenchmarkT": true, "BenchmarkT/" + strings.Repeat("k", 1100): true,
		"BenchmarkT/short": true, "BenchmarkT/" + strings.Repeat("m", 2100): true, "BenchmarkFail": false}
	if diff := gocmp.Diff(want, got); diff != "" {
		t.Errorf("results (-want +got):\n%s", diff)
	}
	if st.PackageFailures != 0 {
		t.Errorf("stats %+v, want no package failures", st)
	}
}

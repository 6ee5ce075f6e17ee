package ingest_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// readJUnit reads x, failing the test on an error.
func readJUnit(t *testing.T, x string) []ingest.Result {
	t.Helper()
	var c collector
	if _, err := ingest.ReadJUnit(t.Context(), strings.NewReader(x), &c); err != nil {
		t.Fatalf("ReadJUnit: %v", err)
	}
	return c.got
}

// A time JSON cannot carry (NaN, ±Inf, out of range, or overflowing as
// milliseconds) or cannot be parsed is no duration, as a missing one is:
// it once failed the send mid-run ("json: unsupported value: NaN").
func TestReadJUnitNonFiniteTime(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-Inf", "infinity", "1e400", "-1e400", "1e307", "abc", "", "1,5"} {
		got := readJUnit(t, `<testsuite><testcase name="a" time="`+v+`"/></testsuite>`)
		if len(got) != 1 || got[0].DurationMs != 0 {
			t.Errorf("time=%q: %+v", v, briefs(got))
			continue
		}
		if _, err := json.Marshal(got[0]); err != nil {
			t.Errorf("time=%q: %v", v, err)
		}
	}
	if got := readJUnit(t, `<testsuite><testcase name="a" time=" 1.5 "/></testsuite>`); got[0].DurationMs != 1500 {
		t.Errorf("time 1.5: %v ms", got[0].DurationMs)
	}
}

// A negative time is 0, as the reference reporter clamps it; it was sent
// as a negative duration.
func TestReadJUnitNegativeTime(t *testing.T) {
	t.Parallel()
	for _, v := range []string{"-1", "-0.001", "-1e300"} {
		got := readJUnit(t, `<testsuite><testcase name="a" time="`+v+`"/></testsuite>`)
		if len(got) != 1 || got[0].DurationMs != 0 {
			t.Errorf("time=%q: %+v", v, briefs(got))
		}
	}
}

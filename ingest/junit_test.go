package ingest_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

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

// middleCut is the documented cut of a failure's text: keep bytes, half
// from each end, never inside a character, the marker naming the bytes
// removed.
func middleCut(s string, keep int) string {
	if len(s) <= keep {
		return s
	}
	head, start := keep/2, len(s)-(keep-keep/2)
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[:head] + fmt.Sprintf("…[truncated by projectops: %d bytes removed]…", start-head) + s[start:]
}

// A long failure text keeps its real head and tail, whole characters
// only, and the marker counts every byte removed: only its first 16 KiB
// were kept, so the tail was lost and the count too small.
func TestReadJUnitLongFailureText(t *testing.T) {
	t.Parallel()
	const keep = 8 << 10 // maxFailureText
	for n, size := range []int{100, 3000, 6000, 20000, 300000, 400000} {
		// 3-byte characters, in pieces (CDATA sections are tokens of
		// their own), so cuts fall inside characters and across pieces;
		// leading and trailing space is trimmed.
		var body, out, whole, wholeOut strings.Builder
		msg := ""
		if n%2 == 0 {
			msg = "boom"
			whole.WriteString("boom\n")
		}
		body.WriteString("\n\t ")
		whole.WriteString("\n\t ")
		for i := 0; whole.Len() < size; i++ {
			p := fmt.Sprintf("line %d €€€€ ", i) + strings.Repeat("€", i%700)
			body.WriteString("<![CDATA[" + p + "]]>")
			whole.WriteString(p)
			o := fmt.Sprintf("out %d ✓\n", i)
			out.WriteString(o)
			wholeOut.WriteString(o)
		}
		body.WriteString("  THE END\n  ")
		whole.WriteString("  THE END\n  ")
		got := readJUnit(t, `<testsuite><testcase name="a"><failure message="`+msg+`">`+body.String()+
			`</failure><system-out>`+out.String()+`</system-out></testcase></testsuite>`)
		want := middleCut(strings.TrimSpace(whole.String()), keep) + "\n--- output:\n" +
			middleCut(strings.TrimSpace(wholeOut.String()), keep)
		if len(got) != 1 {
			t.Fatalf("size %d: %d results", size, len(got))
		}
		if got[0].Error != want {
			t.Errorf("size %d: error text differs:\n got %.200q…%q\nwant %.200q…%q", size,
				got[0].Error, got[0].Error[max(0, len(got[0].Error)-200):], want, want[max(0, len(want)-200):])
		}
		if !utf8.ValidString(got[0].Error) {
			t.Errorf("size %d: invalid UTF-8", size)
		}
	}
}

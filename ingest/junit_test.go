package ingest_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
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

// ESC (and the other controls XML 1.0 forbids), raw or as a character
// reference, as JUnit writers keeping ANSI colours write it, is dropped
// with the colour sequence it starts: encoding/xml refused such a file
// whole ("illegal character code U+001B").
func TestReadJUnitControlCharacters(t *testing.T) {
	t.Parallel()
	x := "<testsuite><testcase classname=\"c\x1b[1m\" name=\"a&#27;[32m ok&#x1B;[0m\"><failure message=\"&#x1b;[31mboom&#0027;[0m\x07\">" +
		"\x1b[31mAssertionError\x1b[39m: \x01want&#1; 1&#10;got 2 &amp; &#x41;\x1b[0m" +
		"<![CDATA[ keeps &#27; as text\x1b[2K]]></failure></testcase>" +
		"<testcase name=\"b\x1b\" time=\"1\"/></testsuite>"
	for _, slow := range []bool{false, true} {
		var r io.Reader = strings.NewReader(x)
		if slow { // references and sequences split across reads
			r = iotest.OneByteReader(r)
		}
		var c collector
		if _, err := ingest.ReadJUnit(t.Context(), r, &c); err != nil {
			t.Fatalf("slow %v: %v", slow, err)
		}
		if len(c.got) != 2 || c.got[0].CaseTitle != "c::a ok" || c.got[1].CaseTitle != "b" {
			t.Fatalf("slow %v: %+v", slow, briefs(c.got))
		}
		if want := "boom\nAssertionError: want 1\ngot 2 & A keeps &#27; as text"; c.got[0].Error != want {
			t.Errorf("slow %v: error %q, want %q", slow, c.got[0].Error, want)
		}
	}
	// Malformed XML is still refused, other illegal references included.
	for _, bad := range []string{`<testsuite><testcase name="a"></testsuite>`, `<testsuite><testcase name="&#27"/></testsuite>`,
		`<testsuite><testcase name="&#X1B;"/></testsuite>`, `<testsuite><testcase name="&#27;/></testsuite>`,
		`<testsuite><testcase name="&#;"/></testsuite>`, "<testsuite><testcase name=\"a\"/></testsuite>&#27"} {
		var c collector
		_, err := ingest.ReadJUnit(t.Context(), strings.NewReader(bad), &c)
		var fe *ingest.FormatError
		if !errors.As(err, &fe) {
			t.Errorf("%q: err = %v, want a FormatError", bad, err)
		}
	}
}

// A zero-padded reference to a control character, longer than the filter
// holds back, is dropped too (it passed, and the file was refused).
func TestReadJUnitZeroPaddedControlReference(t *testing.T) {
	for _, ref := range []string{"&#000000000000027;", "&#x00000000000001b;", "&#0027;"} {
		doc := `<testcase name="t"><failure>a` + ref + `[31mb</failure></testcase>`
		var c collector
		if _, err := ingest.ReadJUnit(t.Context(), strings.NewReader(doc), &c); err != nil || len(c.got) != 1 || c.got[0].Error != "ab" {
			t.Errorf("%s: %+v, %v; want Error \"ab\"", ref, briefs(c.got), err)
		}
	}
	// A zero-padded reference to anything else stays that character.
	var c collector
	doc := `<testcase name="t"><failure>&#0000000000000065;&#x000041;</failure></testcase>`
	if _, err := ingest.ReadJUnit(t.Context(), strings.NewReader(doc), &c); err != nil || len(c.got) != 1 || c.got[0].Error != "AA" {
		t.Errorf("padded A: %+v, %v", briefs(c.got), err)
	}
}

// A testcase without a name attribute is "test-<n>", n its position among
// the document's testcases (skipped ones included), as the service's
// reporter names it; an empty name stays empty.
func TestReadJUnitMissingNameAttribute(t *testing.T) {
	t.Parallel()
	got := readJUnit(t, `<testsuites><testsuite><testcase classname="C" time="1"/><testcase name="s"><skipped/></testcase></testsuite>
<testsuite><testcase time="1"/><testcase classname="D" name=""/></testsuite></testsuites>`)
	if titles, want := caseTitles(got), "C::test-1|test-3|D::"; titles != want {
		t.Errorf("titles %q, want %q", titles, want)
	}
}

// A failure or error element with neither message nor text gives the
// service's reporter's fallback, "JUnit testcase failed", not an empty
// error; the output still follows it.
func TestReadJUnitEmptyFailureText(t *testing.T) {
	t.Parallel()
	got := readJUnit(t, `<testsuite><testcase name="a"><failure/></testcase><testcase name="b"><error></error><system-out>log</system-out></testcase><testcase name="c"><failure message="m"/></testcase></testsuite>`)
	want := []string{"JUnit testcase failed", "JUnit testcase failed\n--- output:\nlog", "m"}
	for i, r := range got {
		if r.Passed || r.Error != want[i] {
			t.Errorf("%s: passed %v error %q, want %q", r.CaseTitle, r.Passed, r.Error, want[i])
		}
	}
}

// A testcase's duration is rounded to whole milliseconds, as the service's
// reporter rounds it; it was sent with the fraction.
func TestReadJUnitDurationRounded(t *testing.T) {
	t.Parallel()
	got := readJUnit(t, `<testsuite><testcase name="a" time="0.0012"/><testcase name="b" time="1.0005"/><testcase name="c" time="0.0004"/><testcase name="d" time="-0.0004"/></testsuite>`)
	want := []float64{1, 1001, 0, 0}
	for i, r := range got {
		if r.DurationMs != want[i] {
			t.Errorf("%s: durationMs %v, want %v", r.CaseTitle, r.DurationMs, want[i])
		}
	}
}

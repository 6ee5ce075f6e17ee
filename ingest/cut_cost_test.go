package ingest

import (
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// A failure message far over what is kept (a stack with a huge serialized
// object) is read in windows, not redacted whole: memory for the cut does
// not grow with the text beyond the text itself.
func TestCutMiddleLongTextCostBounded(t *testing.T) {
	s := strings.Repeat("    at Object.<anonymous> (/src/app/x.test.js:12:34) expected 1 received 2 lorem ipsum\n", 16<<20/88)
	rd := redactor{}.withValues("OPAQUEREPLAYTOKENqwertzuiop0123456789")
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	out := rd.cutMiddle(s, maxFailureText)
	runtime.ReadMemStats(&m1)
	if len(out) > maxFailureText+100 {
		t.Fatalf("cut to %d bytes", len(out))
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > uint64(len(s)) {
		t.Errorf("cutting a %d MiB text to %d bytes allocated %d MiB (%.1f× the text)",
			len(s)>>20, maxFailureText, alloc>>20, float64(alloc)/float64(len(s)))
	}
}

// The marker counts a byte of invalid UTF-8 as one even when the text
// also holds U+FFFD of its own away from the cut's edges (near them the
// count is approximate, as docs/reporter.md says).
func TestCutMarkerMixedReplacementChars(t *testing.T) {
	s := strings.Repeat("caf\xe9 ", 1000) + strings.Repeat("\uFFFD", 4000) + strings.Repeat("caf\xe9 ", 1000)
	for name, out := range map[string]string{
		"whole":   redactor{}.cutMiddle(s, 8000),
		"windows": redactor{}.cutText(s[:4000+cutMargin], s[len(s)-4000-cutMargin:], len(s), 4000, 4000, ""),
	} {
		m := regexp.MustCompile(`…\[truncated by projectops: (\d+) bytes removed\]…`).FindStringSubmatchIndex(out)
		if m == nil {
			t.Fatalf("%s: no marker: %.200q", name, out)
		}
		got, _ := strconv.Atoi(out[m[2]:m[3]])
		shown := len(strings.ReplaceAll(out[:m[0]]+out[m[1]:], "\ufffd", "\xe9")) // the kept part holds only Latin-1 é
		if want := len(s) - shown; got != want {
			t.Errorf("%s: marker says %d bytes removed; %d of the %d read are not shown", name, got, want, len(s))
		}
	}
}

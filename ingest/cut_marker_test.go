package ingest

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The marker counts the bytes read that are not shown: redaction turns
// each byte of invalid UTF-8 into U+FFFD, 3 bytes shown for 1 read (a
// Latin-1 log a caller records).
func TestCutMarkerCountsBytesAsRead(t *testing.T) {
	s := strings.Repeat("caf\xe9 ", 4000) // 20000 bytes, Latin-1
	for _, out := range []string{
		redactor{}.cutMiddle(s, 8000),
		redactor{}.cutText(s[:4000+cutMargin], s[len(s)-4000-cutMargin:], len(s), 4000, 4000, ""), // windows
	} {
		m := regexp.MustCompile(`…\[truncated by projectops: (\d+) bytes removed\]…`).FindStringSubmatchIndex(out)
		if m == nil {
			t.Fatalf("no marker: %.200q", out)
		}
		got, _ := strconv.Atoi(out[m[2]:m[3]])
		shown := len(strings.ReplaceAll(out[:m[0]]+out[m[1]:], "\ufffd", "\xe9")) // one byte read per U+FFFD
		if want := len(s) - shown; got != want {
			t.Errorf("marker says %d bytes removed; %d of the %d read are not shown", got, want, len(s))
		}
	}
}

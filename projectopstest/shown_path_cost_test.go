package projectopstest

import (
	"strings"
	"testing"
	"time"
)

// A path of many segments to mask costs about its length, whatever masks
// them: each step writes the shown path once, into a builder, rather than
// rebuilding it per masked segment (which took ~1.5 s for 256 KiB of
// escaped keys). Each path is timed against one of the same length and
// shape that the step reads the same way but masks nothing, measured in
// the same test; a quadratic step is hundreds of times slower at this
// length, a linear one within a small factor.
func TestShownPathManyMaskedSegmentsCostLinear(t *testing.T) {
	s := NewTestServer(t)
	_ = s.Default()
	secret := strings.Repeat("S", tunnelSecretLen)
	other := strings.Repeat("T", tunnelSecretLen)
	s.mu.Lock()
	ts := &s.st.tun
	ts.init()
	ts.shown[secret] = &tunnelRec{}
	s.mu.Unlock()
	const size = 128 << 10
	for _, c := range []struct{ name, masked, plain string }{
		{"escaped keys", "/%73k_AAAAAAAAAAAAAAAAAAAA", "/%74k_AAAAAAAAAAAAAAAAAAAA"},
		{"upload tokens", "/eval-ingest-uploads/tok", "/eval-ingest-upload5/tok"},
		{"tunnel secrets", "/" + secret, "/" + other},
	} {
		masked := "/api/v1" + strings.Repeat(c.masked, size/len(c.masked))
		// The plain path ends in eval-ingest-uploads with nothing after
		// it, so that each step walks it whole, as it does the masked one.
		plain := "/api/v1" + strings.Repeat(c.plain, size/len(c.plain)) + "/eval-ingest-uploads"
		if got := s.shownPath(masked); strings.Count(got, "REDACTED") < size/len(c.masked)/2 {
			t.Fatalf("%s: the path is not masked: %.80q", c.name, got)
		}
		if got := s.shownPath(plain); got != plain {
			t.Fatalf("%s: the plain path is masked: %.80q", c.name, got)
		}
		tm, tp := fastest(func() { s.shownPath(masked) }), fastest(func() { s.shownPath(plain) })
		if tm > 25*tp+time.Millisecond {
			t.Errorf("%s: shownPath of %d bytes took %v, of a path masking nothing %v", c.name, len(masked), tm, tp)
		}
	}
}

// fastest is the shortest of a few runs of f: the one least disturbed by
// whatever else the machine runs.
func fastest(f func()) time.Duration {
	best := time.Duration(1<<63 - 1)
	for range 5 {
		t0 := time.Now()
		f()
		best = min(best, time.Since(t0))
	}
	return best
}

package projectopstest

import (
	"runtime"
	"strings"
	"testing"
)

// A path of many segments to mask costs about its length, whatever masks
// them: each step writes the shown path once, into a builder, rather than
// rebuilding it per masked segment (which took ~1.5 s for 256 KiB of
// escaped keys). The cost is counted, not timed: the bytes one call
// allocates, which a rebuild per segment makes thousands of times the
// path's length (gigabytes here) and one pass a few times it. The plain
// path of the same length and shape, which masks nothing, shows the
// steps read it the same way.
func TestShownPathManyMaskedSegmentsCostLinear(t *testing.T) {
	s := NewTestServer(t)
	ws := s.Default()
	secret := strings.Repeat("S", tunnelSecretLen)
	other := strings.Repeat("T", tunnelSecretLen)
	s.mu.Lock()
	ts := &s.st.tun
	ts.init()
	ts.shown[secret] = &tunnelRec{}
	// Too short to be key-shaped: found by hash, then by string.
	const key = "sk_test_SECRET123"
	_, err := s.st.addKey(APIKeySpec{UserID: ws.UserID, Secret: Secret(key)})
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	lookalike := key[:len(key)-1] + "X"
	const size = 128 << 10
	for _, c := range []struct{ name, masked, plain string }{
		{"escaped keys", "/%73k_AAAAAAAAAAAAAAAAAAAA", "/%74k_AAAAAAAAAAAAAAAAAAAA"},
		{"upload tokens", "/eval-ingest-uploads/tok", "/eval-ingest-upload5/tok"},
		{"tunnel secrets", "/" + secret, "/" + other},
		// The double's own keys, each masked once rebuilt the whole path
		// (16-33 MB for 128 KiB under the lock).
		{"own keys glued to ids", "/x" + key, "/x" + lookalike},
		{"own key bodies as segments", "/" + key[len(keyPrefix):], "/" + lookalike[len(keyPrefix):]},
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
		n := allocatedBytes(func() { s.shownPath(masked) })
		if n > 32*uint64(len(masked)) {
			t.Errorf("%s: shownPath of %d bytes allocated %d bytes", c.name, len(masked), n)
		}
	}
}

// allocatedBytes is what f allocates on the heap (other goroutines' share
// too, which the bound leaves room for).
func allocatedBytes(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

package ingest

import "bytes"

// minSKTail is the fewest token characters after "sk_" that make an sk_
// token: "task_sk_1" or "mask_sk_" is no key.
const minSKTail = 8

// skTokenAt returns the span of the first sk_ token in b at or after
// from, or -1, -1. A token is "sk_" followed by minSKTail or more of
// [A-Za-z0-9_-] (neither '"' nor '\', so it never crosses a JSON string's
// end or escape), where skBoundaryBefore allows one to start.
func skTokenAt(b []byte, from int) (int, int) {
	for off := from; off < len(b); {
		// Candidates by their '_': "sk_" would otherwise stop at every 's'.
		u := bytes.IndexByte(b[off:], '_')
		if u < 0 {
			break
		}
		u += off
		off = u + 1
		k := u - 2
		if k < from || b[k] != 's' || b[k+1] != 'k' || !skBoundaryBefore(b, k) {
			continue
		}
		e := u + 1
		for e < len(b) && isWordChar(b[e]) {
			e++
		}
		if e-(u+1) >= minSKTail {
			return k, e
		}
		// Too short: an "sk_" inside the tail has a shorter one still.
		off = max(off, e)
	}
	return -1, -1
}

// redactSKTokens replaces every sk_ token in b (see skTokenAt); b is
// returned as is when there is none.
func redactSKTokens(b []byte) []byte {
	var out []byte
	last := 0
	for {
		k, e := skTokenAt(b, last)
		if k < 0 {
			break
		}
		out = append(append(out, b[last:k]...), Redacted...)
		last = e
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// skBoundaryBefore reports whether an sk_ token may start at b[k]: at the
// start of b, after a byte that is no ASCII letter or digit, or after a
// JSON escape (\n, \t, \r, \b, \f, \uXXXX), which ends in a letter or
// digit but stands for another character: a key at the start of a line
// is "\nsk_…" in the JSON the rules read, and one after "<" or invalid
// UTF-8 may be "\u003csk_…" or "\ufffdsk_…". '_' counts: go test writes
// a subtest named "key sk_live_…" as "TestX/key_sk_live_…", and
// identifiers glue a key on with '_' too. A letter or digit before "sk_"
// (task_skill, disk_size) makes a word that merely holds it. An escape of
// a letter (\u0041) counts too: over-redacting that rare spelling is the
// safe side.
func skBoundaryBefore(b []byte, k int) bool {
	switch {
	case k == 0 || !isASCIIAlnum(b[k-1]):
		return true
	case k >= 2 && b[k-2] == '\\' && bytes.IndexByte([]byte("ntrbf"), b[k-1]) >= 0:
		return true
	}
	return k >= 6 && b[k-6] == '\\' && b[k-5] == 'u' && isHex(b[k-4]) && isHex(b[k-3]) && isHex(b[k-2]) && isHex(b[k-1])
}

// isASCIIAlnum reports whether c is an ASCII letter or digit.
func isASCIIAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

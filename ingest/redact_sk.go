package ingest

import "bytes"

// minSKTail is the fewest token characters after "sk_" that make an sk_
// token after a strong boundary: "task_sk_1" or "mask_sk_" is no key.
const minSKTail = 8

// minSKWeakToken is the fewest characters, "sk_" included, of an sk_
// token after a weak boundary ('_'), whose tail must also hold a
// character no snake_case word holds (an uppercase letter, a digit or
// '-'; see isSKMark), unless it has minSKWeakLongToken or more: go test
// writes a subtest's spaces as '_', so "key sk_live_…" is
// "key_sk_live_…", but "use sk prefix for keys" is
// "use_sk_prefix_for_keys", an ordinary snake_case name, and so are
// identifiers.
const minSKWeakToken = 16

// minSKWeakLongToken is the fewest characters, "sk_" included, of an sk_
// token after '_' that is one whatever it holds: the service's keys are
// "sk_" and 43 random base64url characters (46), which may be all
// lowercase letters and '_' (rarely, but a rare key is a key), and no
// snake_case word in a subtest's name runs that long after "sk_".
const minSKWeakLongToken = 40

// skBound is how strongly what precedes an "sk_" separates it from a word.
type skBound int

const (
	skNoBound     skBound = iota // a letter or digit: a word that holds "sk_"
	skWeakBound                  // '_': the token must look like a key (skTail)
	skStrongBound                // anything else, the start, a JSON escape
)

// skTokenAt returns the span of the first sk_ token in b at or after
// from, or -1, -1. A token is "sk_" followed by [A-Za-z0-9_-] (neither
// '"' nor '\', so it never crosses a JSON string's end or escape), where
// skBoundaryBefore allows one to start, with a tail skTail accepts.
func skTokenAt(b []byte, from int) (int, int) {
	return skTokenAtFunc(b, from, skBoundaryBefore)
}

// skTokenAtFunc is skTokenAt with bound telling what precedes b[k].
func skTokenAtFunc(b []byte, from int, bound func(b []byte, k int) skBound) (int, int) {
	// The run of token characters read last, [runFrom, runEnd), and its
	// last mark (isSKMark, or -1): a candidate inside it shares its end, so no run
	// is read twice (a rejected "_sk_" candidate's tail may hold a
	// "-sk_" one, which a strong boundary makes a key).
	runFrom, runEnd, lastMark := -1, -1, -1
	for off := from; off < len(b); {
		// Candidates by their '_': "sk_" would otherwise stop at every 's'.
		u := bytes.IndexByte(b[off:], '_')
		if u < 0 {
			break
		}
		u += off
		off = u + 1
		k := u - 2
		if k < from || b[k] != 's' || b[k+1] != 'k' {
			continue
		}
		bd := bound(b, k)
		if bd == skNoBound {
			continue
		}
		if !(runFrom <= u+1 && u+1 <= runEnd) {
			runFrom, runEnd, lastMark = u+1, u+1, -1
			for runEnd < len(b) && isWordChar(b[runEnd]) {
				if isSKMark(b[runEnd]) {
					lastMark = runEnd
				}
				runEnd++
			}
		}
		if skTail(runEnd-(u+1), lastMark > u, bd) {
			return k, runEnd
		}
	}
	return -1, -1
}

// skTail reports whether a tail of n token characters after "sk_" (mark:
// one of them is an isSKMark) makes a key after a boundary bd: minSKTail
// or more of them after a strong one; after a weak one, minSKWeakToken or
// more in all, "sk_" included, and a mark, or minSKWeakLongToken or more.
func skTail(n int, mark bool, bd skBound) bool {
	if bd == skStrongBound {
		return n >= minSKTail
	}
	return len("sk_")+n >= minSKWeakLongToken || len("sk_")+n >= minSKWeakToken && mark
}

// isSKMark reports whether token character c is one a snake_case word
// does not hold: an uppercase letter, a digit or '-'.
func isSKMark(c byte) bool {
	return 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-'
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

// skBoundaryBefore tells how an sk_ token may start at b[k]. Strongly at
// the start of b, after a byte that is no ASCII letter or digit nor '_',
// or after a JSON escape (\n, \t, \r, \b, \f, \uXXXX), which ends in a
// letter or digit but stands for another character: a key at the start
// of a line is "\nsk_…" in the JSON the rules read, and one after "<" or
// invalid UTF-8 may be "\u003csk_…" or "\ufffdsk_…". An escape of a
// letter (\u0041) counts too: over-redacting that rare spelling is the
// safe side. Weakly after '_', or its escape \u005f (one text, one
// answer, however it is spelled): go test writes a subtest named "key
// sk_live_…" as "TestX/key_sk_live_…", and identifiers glue a key on
// with '_' too, but snake_case words hold "_sk_" as well (see skTail). A
// letter or digit before "sk_" (task_skill, disk_size) makes a word that
// merely holds it.
func skBoundaryBefore(b []byte, k int) skBound {
	switch {
	case k == 0:
		return skStrongBound
	case b[k-1] == '_':
		return skWeakBound
	case !isASCIIAlnum(b[k-1]):
		return skStrongBound
	case k >= 2 && b[k-2] == '\\' && bytes.IndexByte([]byte("ntrbf"), b[k-1]) >= 0:
		return skStrongBound
	case k >= 6 && b[k-6] == '\\' && b[k-5] == 'u' && isHex(b[k-4]) && isHex(b[k-3]) && isHex(b[k-2]) && isHex(b[k-1]):
		if string(b[k-4:k-1]) == "005" && b[k-1]|0x20 == 'f' {
			return skWeakBound // \u005f is '_', as weak as written
		}
		return skStrongBound
	}
	return skNoBound
}

// isASCIIAlnum reports whether c is an ASCII letter or digit.
func isASCIIAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

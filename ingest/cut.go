package ingest

import (
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// cutMargin is the text kept, and redacted, beyond each edge of a cut,
// and then dropped with the middle. A secret is known by what stands
// around it (the "sk_" of a key, the "Authorization: Bearer " before a
// token, a header's name, the '@' after URL credentials), so the rules
// must read it whole before it is cut: one whose identifying context is
// within cutMargin of it never survives a cut. 4 KiB is a whole header
// line as common servers cap it (nginx's 4-8 KiB buffers), far more than
// any key, token or JWT the rules know, and it is what JUnit's head and
// tail windows always held beyond their cut.
const cutMargin = 4 << 10

// wholeRedactMax bounds the text redacted whole before a cut: each rule
// copies what it reads, so a 100 MB failure message read whole would cost
// a gigabyte where its windows cost a few KiB. Past it (and past what is
// kept with room for the windows) the text is read in windows as a
// source's streamed output is, unless it may hold name/value pairs (a
// HAR), which the pair rule reads only in a whole JSON document.
const wholeRedactMax = 1 << 20

// namePairs reports whether s may hold JSON name/value pairs.
func namePairs(s string) bool {
	return strings.Contains(s, `"name"`) && strings.Contains(s, `"value"`)
}

// cutText returns the text of n bytes that starts with head and ends with
// tail (it is all there when n is len(head)+len(tail); else head and tail
// must each hold cutMargin bytes beyond what is kept) cut to at most
// headKeep bytes from its start and tailKeep from its end, with
// sep+marker+sep between. A text that needs no cut is returned as is (the
// recorder redacts it); one that does is redacted by rd first, whole when
// it is all there and under wholeRedactMax or may hold name/value pairs (a
// JSON document in it, a HAR, is then read as one), else head and tail
// each with their margin, and the redacted text is
// cut, so a secret that straddles an edge is replaced before the cut
// could hide what identifies it. The marker counts the bytes of the n
// not shown.
func (rd redactor) cutText(head, tail string, n, headKeep, tailKeep int, sep string) string {
	headKeep, tailKeep = max(headKeep, 0), max(tailKeep, 0)
	if n == len(head)+len(tail) {
		s := head + tail // no copy when tail is empty
		if n <= headKeep+tailKeep {
			return s
		}
		if n > wholeRedactMax && n > headKeep+tailKeep+4*cutMargin && !namePairs(s) {
			return rd.cutText(s[:headKeep+cutMargin], s[n-tailKeep-cutMargin:], n, headKeep, tailKeep, sep)
		}
		r := rd.cutRedact(s)
		if len(r) <= headKeep+tailKeep {
			return r
		}
		return joinCut(r[:headEdge(r, headKeep)], r[tailEdge(r, len(r)-tailKeep):], s, s, n, sep)
	}
	// The margin at the inner edge of each window is never kept: what the
	// window cut there may be a secret whose context lies beyond it.
	rh, rt := rd.cutRedact(head), rd.cutRedact(tail)
	h := rh[:headEdge(rh, min(headKeep, len(rh)-cutMargin))]
	t := rt[tailEdge(rt, max(len(rt)-tailKeep, cutMargin)):]
	return joinCut(h, t, head, tail, n, sep)
}

// cutRedact is s redacted as a Reporter redacts a field: by the user's
// hook, then the built-in rules.
func (rd redactor) cutRedact(s string) string {
	if rd.hook != nil {
		s = rd.hook(s)
	}
	return string(rd.text(s))
}

// joinCut is h and t, redacted from the text read as head and tail, with
// a marker for the bytes of its n not shown.
func joinCut(h, t, head, tail string, n int, sep string) string {
	return h + sep + marker(n-readLen(h, head[:min(len(h), len(head))])-readLen(t, tail[len(tail)-min(len(t), len(tail)):])) + sep + t
}

// readLen is how many bytes of read, the end of the text shown was cut
// from, shown stands for: redaction turns each byte of invalid UTF-8 into
// a U+FFFD, 3 bytes for 1. (Approximate when read mixes such bytes with
// U+FFFD of its own, or redaction changed its length.)
func readLen(shown, read string) int {
	if utf8.ValidString(read) {
		return len(shown)
	}
	invalid := strings.Count(shown, "\uFFFD") - strings.Count(read, "\uFFFD")
	return len(shown) - 2*max(invalid, 0)
}

// cutMiddle is s cut to keep bytes, half from each end (see cutText).
func (rd redactor) cutMiddle(s string, keep int) string {
	keep = max(keep, 0)
	return rd.cutText(s, "", len(s), keep/2, keep-keep/2, "")
}

// headEdge is where a head of at most k bytes of r ends: at a character's
// start, and before a Redacted it would split.
func headEdge(r string, k int) int {
	k = min(max(k, 0), len(r))
	for k > 0 && k < len(r) && !utf8.RuneStart(r[k]) {
		k--
	}
	if j := splitRedacted(r, k); j >= 0 {
		return j
	}
	return k
}

// tailEdge is where a tail starting at k or after in r starts: at a
// character's start, and after a Redacted it would split.
func tailEdge(r string, k int) int {
	k = min(max(k, 0), len(r))
	for k < len(r) && !utf8.RuneStart(r[k]) {
		k++
	}
	if j := splitRedacted(r, k); j >= 0 {
		return j + len(Redacted)
	}
	return k
}

// splitRedacted is the start of the Redacted in r that a cut at k would
// split, or -1.
func splitRedacted(r string, k int) int {
	for j := max(0, k-len(Redacted)+1); j < k && k < len(r); j++ {
		if strings.HasPrefix(r[j:], Redacted) {
			return j
		}
	}
	return -1
}

func marker(n int) string {
	return "…[truncated by projectops: " + strconv.Itoa(n) + " bytes removed]…"
}

// cutRedactor is the redactor a reader cuts text for rec with: a
// Reporter's own (its client's key, its run's secrets and its Redact
// hook), found through the wrappers in front of it by their
// Unwrap() Recorder (see Recorder), else the built-in rules. It is asked
// just before a cut text is recorded, so a wrapper may make its Reporter
// then.
func cutRedactor(rec Recorder) redactor {
	for range 16 { // a chain that long is a loop
		switch r := rec.(type) {
		case *Reporter:
			if r != nil && r.enc != nil {
				rd := r.enc.redact
				rd.hook = r.enc.hook
				return rd
			}
			return redactor{}
		case interface{ Unwrap() Recorder }:
			rec = r.Unwrap()
		default:
			return redactor{}
		}
	}
	return redactor{}
}

// serialized is hook called one at a time: a Reporter runs its Redact hook
// under its lock, and sources that cut text for it (several may record
// into one Reporter at once) run it outside, so a hook written for one
// caller at a time stays safe.
func serialized(hook func(string) string) func(string) string {
	if hook == nil {
		return nil
	}
	var mu sync.Mutex
	return func(s string) string {
		mu.Lock()
		defer mu.Unlock()
		return hook(s)
	}
}

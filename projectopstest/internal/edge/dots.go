package edge

import "strings"

// ResolveDots resolves the dot segments of an escaped path as a WHATWG URL
// parser does, which is how the service's server reads a request target
// before routing (it builds the request's URL with new URL whenever the
// target has a dot segment or a byte outside its plain set): a raw '\' is
// read as '/', as in any http(s) URL's path ("%5C" is not); a "." segment
// is dropped and a ".." segment drops the one before it, never climbing
// above the root; "%2e" counts as a dot in any case (".%2E", "%2e." and
// "%2e%2e" are ".."); a dot segment at the end leaves a trailing slash;
// empty segments ("//") stay, and so does "..%2F" (not a segment of its
// own). A path NeedsResolving does not report comes back as it is, without
// allocating. p must not hold a fragment: WHATWG resolves nothing after a
// '#'.
func ResolveDots(p string) string {
	if !NeedsResolving(p) {
		return p
	}
	p = strings.ReplaceAll(p, `\`, "/")
	if !hasDotSegment(p) {
		return p
	}
	segs := strings.Split(p[1:], "/")
	out := segs[:0] // each segment is read before its slot is written again
	for i, seg := range segs {
		last := i == len(segs)-1
		switch {
		case isDoubleDot(seg):
			if len(out) > 0 {
				out = out[:len(out)-1]
			}
			if last {
				out = append(out, "")
			}
		case isSingleDot(seg):
			if last {
				out = append(out, "")
			}
		default:
			out = append(out, seg)
		}
	}
	return "/" + strings.Join(out, "/")
}

// NeedsResolving reports whether ResolveDots changes the escaped path p,
// which starts with a slash: whether it has a raw '\' or a dot segment.
func NeedsResolving(p string) bool {
	return strings.IndexByte(p, '\\') >= 0 || hasDotSegment(p)
}

// hasDotSegment reports whether p, which starts with a slash, has a "." or
// ".." segment, its segments separated by '/' alone.
func hasDotSegment(p string) bool {
	if p == "" || p[0] != '/' ||
		!strings.Contains(p, "/.") && !strings.Contains(p, "/%2e") && !strings.Contains(p, "/%2E") {
		return false
	}
	for rest := p[1:]; ; {
		seg, after, more := strings.Cut(rest, "/")
		if isSingleDot(seg) || isDoubleDot(seg) {
			return true
		}
		if !more {
			return false
		}
		rest = after
	}
}

func isSingleDot(s string) bool { return s == "." || strings.EqualFold(s, "%2e") }

func isDoubleDot(s string) bool {
	switch len(s) {
	case 2:
		return s == ".."
	case 4:
		return strings.EqualFold(s, ".%2e") || strings.EqualFold(s, "%2e.")
	case 6:
		return strings.EqualFold(s, "%2e%2e")
	}
	return false
}

// HasFragment reports whether the request target t has a raw '#' in its
// path (before any '?'). A WHATWG URL parser takes what follows it as the
// fragment, never resolved, and the service's routes read their path up to
// the '?' fragment and all, so no route of the service matches it.
func HasFragment(t string) bool {
	i := strings.IndexAny(t, "?#")
	return i >= 0 && t[i] == '#'
}

package projectopstest

import (
	"slices"
	"strings"
)

// shownPath is a request path as the double's errors and logs show it:
// nothing after a '#' (see cutFragment); the segment after
// eval-ingest-uploads, an upload URL's token and its credential, is
// replaced, whatever the method or the rest of the path ("//", "." and
// ".." segments skipped), and so is anything shaped like an API key (see
// keyShapedSegments). Segments end at '/', and also at '\\' and at an
// escaped one (see segmentEnd).
func shownPath(p string) string { return showPath(p, nil) }

// showPath is shownPath also masking, when mask is not nil, what mask
// replaces in the path without its fragment (odd is oddSeparators of it):
// the one place both the package's and the server's shown paths are made,
// so that FuzzShownPath covers what the server runs.
func showPath(p string, mask func(p string, odd bool) string) string {
	p, frag := cutFragment(p)
	odd := oddSeparators(p)
	p = maskShapes(p, odd)
	if mask != nil {
		p = mask(p, odd)
	}
	if frag != "" {
		p += frag
	}
	return p
}

// fragmentMark stands, in a shown path, for a '#' and all after it.
const fragmentMark = "#…"

// cutFragment splits p at its first '#': what comes before, and
// fragmentMark, or p itself and "" when it has none. After a raw '#' the
// target is a fragment, never sent to the service (the double refuses it,
// edge.Admit), and it may hold anything pasted with a URL: a tunnel's
// k=, an upload token, a key, and one found nowhere else cannot be told
// from an id. A '#' escaped as %23 is the same byte in the decoded path:
// no id of the service holds one, so what follows it is dropped too.
func cutFragment(p string) (string, string) {
	if i := strings.IndexByte(p, '#'); i >= 0 {
		return p[:i], fragmentMark
	}
	return p, ""
}

// oddSeparators reports whether p may hold a segment separator other than
// '/' (see segmentEnd), so that the common path is split with a plain
// IndexByte.
func oddSeparators(p string) bool {
	return strings.IndexByte(p, '\\') >= 0 || strings.Contains(p, "%5")
}

// segmentEnd returns where the segment of p starting at i ends and the
// length of the separator there (0 at p's end). A segment ends at '/'
// and, when odd is set (oddSeparators), at '\\' or at its escaped
// spelling %5C or %5c (a path holds it when it was escaped twice): a
// WHATWG URL parser reads a backslash as '/', so a secret glued to one is
// a segment of its own to whoever resolves it.
func segmentEnd(p string, i int, odd bool) (end, sep int) {
	if !odd {
		if j := strings.IndexByte(p[i:], '/'); j >= 0 {
			return i + j, 1
		}
		return len(p), 0
	}
	for j := i; j < len(p); j++ {
		switch {
		case p[j] == '/' || p[j] == '\\':
			return j, 1
		case p[j] == '%' && j+2 < len(p) && p[j+1] == '5' && p[j+2]|0x20 == 'c':
			return j, 3
		}
	}
	return len(p), 0
}

// maskShapes replaces, in p (no fragment), what is shaped like a key and
// the segment after eval-ingest-uploads (see shownPath); odd is
// oddSeparators(p). p is read once, into a builder, so that a path of
// many such segments costs about its length.
func maskShapes(p string, odd bool) string {
	p = keyShapedSegments(p)
	const dir = "eval-ingest-uploads"
	if !strings.Contains(p, dir) {
		return p
	}
	var b strings.Builder
	done := 0      // p[:done] is in b
	after := false // the segment before was dir
	for i := 0; i <= len(p); {
		end, sep := segmentEnd(p, i, odd)
		switch seg := p[i:end]; {
		case seg == dir:
			after = true
		case after && seg != "" && seg != "." && seg != "..":
			b.WriteString(p[done:i])
			b.WriteString("REDACTED")
			done, after = end, false
		}
		if sep == 0 {
			break
		}
		i = end + sep
	}
	if done == 0 {
		return p
	}
	b.WriteString(p[done:])
	return b.String()
}

// keyShapedSegments replaces, in each segment of p, an API key pasted into
// it (a caller who pasted one where an id goes must not see it echoed in
// an error or a log): from an "sk_" (ASCII, in any case) to the segment's
// end, when the "sk_" starts the segment or follows a byte that is no
// ASCII letter or digit (" sk_", "=sk_", "-sk_") and is followed by at
// least minKeyTail base64url bytes. An id that merely holds "sk_"
// (task_runner, disk_1, sk_test) is no key and is left alone. p is read
// byte by byte, never through a case-folded copy, whose length may differ
// (invalid UTF-8, İ, K); it is returned as it is unless a key is found.
func keyShapedSegments(p string) string {
	var b strings.Builder
	done := 0 // p[:done] is in b
	for i := 0; i < len(p); {
		u := strings.IndexByte(p[i:], '_')
		if u < 0 {
			break
		}
		k := i + u - 2 // where "sk_" would start
		i += u + 1
		if !keyStartsAt(p, k) {
			continue
		}
		end := strings.IndexByte(p[i:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += i
		}
		b.WriteString(p[done:k])
		b.WriteString("REDACTED")
		done, i = end, end
	}
	if done == 0 {
		return p
	}
	b.WriteString(p[done:])
	return b.String()
}

// minKeyTail is the fewest base64url bytes after "sk_" that make it a
// key's: a key's random part is 43 bytes (newKeySecret), a seed's keys may
// be shorter, and an id holding "sk_" ends sooner.
const minKeyTail = 16

// keyStartsAt reports whether a key starts at p[k]: "sk_" in any ASCII
// case, at the start of p or after a byte that is no ASCII letter or
// digit, followed by minKeyTail base64url bytes.
func keyStartsAt(p string, k int) bool {
	if k < 0 || k+len(keyPrefix)+minKeyTail > len(p) ||
		p[k]|0x20 != 's' || p[k+1]|0x20 != 'k' || p[k+2] != '_' ||
		k > 0 && isASCIIAlnum(p[k-1]) {
		return false
	}
	for _, c := range []byte(p[k+len(keyPrefix) : k+len(keyPrefix)+minKeyTail]) {
		if !inKeyAlphabet(c) {
			return false
		}
	}
	return true
}

// isASCIIAlnum reports whether c is an ASCII letter or digit.
func isASCIIAlnum(c byte) bool {
	return 'a' <= c|0x20 && c|0x20 <= 'z' || '0' <= c && c <= '9'
}

// inKeyAlphabet reports whether c is in base64url's alphabet, a key's
// random part's.
func inKeyAlphabet(c byte) bool {
	return isASCIIAlnum(c) || c == '-' || c == '_'
}

// shownPath is the package's shownPath also replacing what the double
// knows is one of its keys (by hash), whatever the key's length or
// alphabet: a key pasted with its "sk_" anywhere (glued to an id, or not
// of the shape keyShapedSegments masks), the longest key that matches
// there first, a segment that is a key pasted without it, and a segment
// whose escapes hide a key (maskEncodedKeys); and any secret a tunnel's
// server record shows, wherever it is (maskTunnelSecrets, which takes the
// lock only for a path holding a run as long as a secret). It runs once
// per request (serveHTTP keeps what it returns in the request's reqInfo).
// A place is hashed only where a key's first bytes and length fit
// (st.keyLens), under the server's lock taken once for the whole path,
// and at most maxKeyHashes times in all (a key found is then compared as
// a string), so a hostile path costs about its length.
func (s *Server) shownPath(p string) string {
	shown, _ := s.shownPathHashes(p)
	return shown
}

// shownPathHashes is shownPath and the number of key hashes it cost: one
// keyCheck serves both the keys as written and the escaped ones, so that
// maxKeyHashes bounds the path, not each step.
func (s *Server) shownPathHashes(p string) (string, int) {
	kc := keyCheck{s: s}
	return s.shownPathWith(p, &kc), kc.hashes
}

// shownPathWith is shownPath looking keys up through kc.
func (s *Server) shownPathWith(p string, kc *keyCheck) string {
	return showPath(p, func(p string, odd bool) string {
		p = s.maskTunnelSecrets(p)
		defer kc.done()
		return s.maskEncodedKeys(s.maskKeysWith(p, odd, kc), kc)
	})
}

// maskKeysWith replaces in p, a shown path without its fragment, the
// double's own keys (see Server.shownPath), looking them up through kc;
// odd is oddSeparators(p). Each of its two steps (keys after their "sk_",
// then segments that are a key's body) reads p once into a builder, so
// that a path of many keys costs about its length.
func (s *Server) maskKeysWith(p string, odd bool, kc *keyCheck) string {
	ix := s.st.keyLens.index()
	if ix == nil {
		return p
	}
	var b strings.Builder
	done := 0 // p[:done] is in b
	for k := strings.Index(p, keyPrefix); k >= 0; {
		next := k + 1
		if body := p[k+len(keyPrefix):]; ix.mayStart(body) {
			for _, n := range ix.lens {
				if n <= len(body) && kc.isKeyBody(body[:n]) {
					b.WriteString(p[done:k])
					b.WriteString("REDACTED")
					done = k + len(keyPrefix) + n
					next = done // a "sk_" inside the key is the key's
					break
				}
			}
		}
		i := strings.Index(p[next:], keyPrefix)
		if i < 0 {
			break
		}
		k = next + i
	}
	if done > 0 {
		b.WriteString(p[done:])
		p = b.String()
		b = strings.Builder{}
		done = 0
	}
	for start := 0; start < len(p); {
		end, sep := segmentEnd(p, start, odd)
		if seg := p[start:end]; slices.Contains(ix.lens, len(seg)) && ix.mayStart(seg) && kc.isKeyBody(seg) {
			b.WriteString(p[done:start])
			b.WriteString("REDACTED")
			done = end
		}
		start = end + max(sep, 1)
	}
	if done == 0 {
		return p
	}
	b.WriteString(p[done:])
	return b.String()
}

// maskTunnelSecrets replaces in p, a shown path without its fragment,
// every secret a server record's url carries (a closed tunnel's too: the
// record still shows it) wherever it occurs (a segment, glued to anything,
// on any path: what follows /tunnels/ need not be a slug, as in
// "/tunnels//slug" or "slug%5C…"). A secret is tunnelSecretLen base64url
// bytes, so only runs of that many are looked at: a path without one (no
// id is that long) is returned without the server's lock. Each window of
// such a run is one map lookup of a substring, without allocating, so a
// hostile path costs about its length under the lock.
func (s *Server) maskTunnelSecrets(p string) string {
	if !hasKeyRun(p, tunnelSecretLen) {
		return p
	}
	var stack [4]int
	found := stack[:0] // starts of shown secrets, ascending
	s.mu.Lock()
	if shown := s.st.tun.shown; len(shown) > 0 {
		run := 0 // base64url bytes ending at p[i]
		for i := 0; i < len(p); i++ {
			if !inKeyAlphabet(p[i]) {
				run = 0
				continue
			}
			if run++; run >= tunnelSecretLen {
				if start := i + 1 - tunnelSecretLen; shown[p[start:i+1]] != nil {
					found = append(found, start)
				}
			}
		}
	}
	s.mu.Unlock()
	if len(found) == 0 {
		return p
	}
	// Masked in one pass, over the union of overlapping finds, so that
	// none leaves a part of another shown.
	var b strings.Builder
	done := 0 // p[:done] is in b
	for k := 0; k < len(found); {
		start, end := found[k], found[k]+tunnelSecretLen
		for k++; k < len(found) && found[k] < end; k++ {
			end = found[k] + tunnelSecretLen
		}
		b.WriteString(p[done:start])
		b.WriteString("REDACTED")
		done = end
	}
	b.WriteString(p[done:])
	return b.String()
}

// hasKeyRun reports whether p holds n base64url bytes in a row.
func hasKeyRun(p string, n int) bool {
	run := 0
	for i := 0; i < len(p); i++ {
		if !inKeyAlphabet(p[i]) {
			run = 0
		} else if run++; run >= n {
			return true
		}
	}
	return false
}

// maxKeyHashes bounds the hashes one path costs: a path made of a key's
// first bytes costs no more than this (a key pasted in it is found unless
// that many look-alikes of that key precede it; ids holding "sk_" cost
// nothing).
const maxKeyHashes = 256

// keyCheck looks a path's candidates up among the double's keys, taking
// the server's lock at the first and keeping it until done.
type keyCheck struct {
	s      *Server
	locked bool
	hashes int      // hashes made, at most maxKeyHashes
	found  []string // the key bodies found, each once: found again without a hash
	// hash is hashKeyParts, or a test's count of the hashes made.
	hash func(prefix, rest string) [32]byte
}

// isKeyBody reports whether keyPrefix+body is one of the double's keys,
// hashing it without building that string. A body found before is
// compared as a string: a path of one key pasted many times costs one
// hash, and every copy is masked, not only those within maxKeyHashes.
func (kc *keyCheck) isKeyBody(body string) bool {
	if slices.Contains(kc.found, body) {
		return true
	}
	if kc.hashes >= maxKeyHashes {
		return false
	}
	kc.hashes++
	if !kc.locked {
		kc.s.mu.Lock()
		kc.locked = true
	}
	hash := kc.hash
	if hash == nil {
		hash = hashKeyParts
	}
	if !kc.s.st.keyHashes[hash(keyPrefix, body)] {
		return false
	}
	kc.found = append(kc.found, body)
	return true
}

// done releases the lock, if a look-up took it.
func (kc *keyCheck) done() {
	if kc.locked {
		kc.s.mu.Unlock()
	}
}

// maskEncodedKeys replaces in p, a shown path without its fragment, each
// '/'-separated segment holding an escape whose decoded text (percent
// escapes and JSON's \uXXXX, \/ and \\, two layers deep: decodeEscapes)
// holds a key, key-shaped or one of the double's own, looked up through
// kc: a caller may paste a key escaped ("%73k_…", which the SDK escapes
// once more, or "\u0073k_…"), which the rules for a key as written do not
// see. The decoded text is split as a path is (oddSeparators of it), so
// that a key glued to a backslash that was itself escaped is a segment of
// its own there too. The whole segment goes, as keyShapedSegments takes a
// key to its segment's end. p is read once, into a builder.
func (s *Server) maskEncodedKeys(p string, kc *keyCheck) string {
	if !strings.ContainsAny(p, `%\`) {
		return p
	}
	var b strings.Builder
	done := 0 // p[:done] is in b
	for start := 0; start < len(p); {
		end := strings.IndexByte(p[start:], '/')
		if end < 0 {
			end = len(p)
		} else {
			end += start
		}
		if seg := p[start:end]; strings.ContainsAny(seg, `%\`) {
			dec := decodeEscapes(decodeEscapes(seg))
			if dec != seg && (keyShapedSegments(dec) != dec || s.maskKeysWith(dec, oddSeparators(dec), kc) != dec) {
				b.WriteString(p[done:start])
				b.WriteString("REDACTED")
				done = end
			}
		}
		start = end + 1
	}
	if done == 0 {
		return p
	}
	b.WriteString(p[done:])
	return b.String()
}

// decodeEscapes is s with one layer of escapes decoded: each %XX (hex in
// either case) as its byte, and JSON's \uXXXX (as UTF-8), \/ and \\; any
// other byte, a malformed escape's included, as it is.
func decodeEscapes(s string) string {
	if !strings.ContainsAny(s, `%\`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(unhex(s[i+1])<<4 | unhex(s[i+2]))
			i += 2
		case c == '\\' && i+5 < len(s) && s[i+1] == 'u' && isHex(s[i+2]) && isHex(s[i+3]) && isHex(s[i+4]) && isHex(s[i+5]):
			b.WriteRune(rune(unhex(s[i+2]))<<12 | rune(unhex(s[i+3]))<<8 | rune(unhex(s[i+4]))<<4 | rune(unhex(s[i+5])))
			i += 5
		case c == '\\' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '\\'):
			b.WriteByte(s[i+1])
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isHex reports whether c is a hex digit, in either case.
func isHex(c byte) bool { return '0' <= c && c <= '9' || 'a' <= c|0x20 && c|0x20 <= 'f' }

// unhex is the value of the hex digit c.
func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return c | 0x20 - 'a' + 10
}

package ingest

import (
	"bytes"
	"slices"
)

// redactEscapedTokens redacts, in the JSON document b, a secret token some
// of whose characters (or the character before it) are spelled as \u
// escapes (sk\u005flive_..., as a test prints a JSON body an encoder wrote
// so, or as JSON quoted in text escapes it again): the rules below match
// a token as written, so such a spelling would pass them. A string of b
// is read decoded, \u00XX escapes of token characters ([A-Za-z0-9_-],
// and a bearer token's . ~ + / =) at any depth of quoting included: a run
// of word characters that holds an escape is replaced whole when it is
// the client's key or holds a run secret, and an sk_ token (skTokenAt's
// rule, an escaped character before it a strong boundary, as the rule
// reads one in b) or a bearer token (reBearer's and reBearerUnderscore's
// rules) is replaced as those rules replace it. b is returned as is when
// no escape of a token character is in it, which is the common case: the
// check is a search for "u00" and "\/".
func (rd redactor) redactEscapedTokens(b []byte) []byte {
	if !hasEscapedTokenChar(b) {
		return b
	}
	var out []byte
	last := 0
	// T is a string's decoded text; at[i] is the offset in b of the
	// escape or byte T[i] came from, at[len(T)] the string's end.
	var text []byte
	var at []int
	var d decodedText
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		text, at = text[:0], at[:0]
		j := i + 1
		for j < len(b) && b[j] != '"' {
			at = append(at, j)
			if b[j] != '\\' || j+1 >= len(b) {
				text = append(text, b[j])
				j++
				continue
			}
			switch c := b[j+1]; c {
			case 'u':
				if j+5 < len(b) && b[j+2] == '0' && b[j+3] == '0' && isHex(b[j+4]) && isHex(b[j+5]) {
					text = append(text, unhex(b[j+4])<<4|unhex(b[j+5]))
				} else {
					text = append(text, 0) // not ASCII: ends a token
				}
				j += 6
			case 'n', 't', 'r', 'b', 'f':
				text = append(text, ' ')
				j += 2
			default: // \" \\ \/
				text = append(text, c)
				j += 2
			}
		}
		at = append(at, min(j, len(b)))
		d.decode(text, at)
		for _, sp := range rd.escapedSecretSpans(&d) {
			from, to := at[d.src[sp[0]]], at[d.src[sp[1]]]
			if from < last {
				continue // inside a span replaced already
			}
			out = append(append(out, b[last:from]...), Redacted...)
			last = to
		}
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// decodedText is a string's text with the \u00XX escapes of token
// characters that escaping it again left in it decoded: c[i] came from
// text[src[i]] on (src[len(c)] is len(text)), and esc[i] tells whether it
// was written as an escape in the document.
type decodedText struct {
	c   []byte
	src []int
	esc []bool
	// read counts the bytes of text the last decode examined, a measure
	// of its work a test can hold to linear without timing it (a run of
	// backslashes was once read again from each of its bytes).
	read int
}

// decode fills d from text, a string's text, and at (see
// redactEscapedTokens).
func (d *decodedText) decode(text []byte, at []int) {
	d.c, d.src, d.esc, d.read = d.c[:0], d.src[:0], d.esc[:0], 0
	for i := 0; i < len(text); {
		n, read := escapedTokenChar(text, i)
		d.read += read
		if n > 0 {
			d.c = append(d.c, unhex(text[i+n-2])<<4|unhex(text[i+n-1]))
			d.src = append(d.src, i)
			d.esc = append(d.esc, true)
			i += n
			continue
		}
		// Every backslash of a run ends where the run does, so none of
		// them starts an escape when its first does not: the run is taken
		// as it is, or a long one is read again from each of its bytes.
		j := skipBackslashes(text, i)
		d.read += j - i
		for ; i < j; i++ {
			d.c = append(d.c, text[i])
			d.src = append(d.src, i)
			d.esc = append(d.esc, at[i+1]-at[i] > 1)
		}
	}
	d.src = append(d.src, len(text))
}

// escaped reports whether a character of d in [from, to) was written as
// an escape.
func (d *decodedText) escaped(from, to int) bool {
	for i := max(from, 0); i < to; i++ {
		if d.esc[i] {
			return true
		}
	}
	return false
}

// escapedSecretSpans returns the spans of d, a string's decoded text, of
// the secrets redactEscapedTokens replaces, in order and not overlapping.
func (rd redactor) escapedSecretSpans(d *decodedText) [][2]int {
	var spans [][2]int
	c := d.c
	// Runs of word characters: the client's key, a run secret.
	for i := 0; i < len(c); {
		if !isWordChar(c[i]) {
			i++
			continue
		}
		start := i
		for i < len(c) && isWordChar(c[i]) {
			i++
		}
		if d.escaped(start, i) && rd.isSecretRun(c[start:i]) {
			spans = append(spans, [2]int{start, i})
		}
	}
	// sk_ tokens; a token spelled without an escape is the same span the
	// sk_ rule finds in the document.
	bound := func(b []byte, k int) skBound {
		if k > 0 && d.esc[k-1] && c[k-1] != '_' {
			return skStrongBound // as skBoundaryBefore reads an escape
		}
		return skBoundaryBefore(b, k)
	}
	for off := 0; ; {
		k, e := skTokenAtFunc(c, off, bound)
		if k < 0 {
			break
		}
		if d.escaped(k-1, e) {
			spans = append(spans, [2]int{k, e})
		}
		off = e
	}
	spans = append(spans, d.bearerSpans()...)
	if len(spans) < 2 {
		return spans
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	merged := spans[:1]
	for _, sp := range spans[1:] {
		if m := &merged[len(merged)-1]; sp[0] < m[1] {
			m[1] = max(m[1], sp[1])
		} else {
			merged = append(merged, sp)
		}
	}
	return merged
}

// bearerSpans returns the spans of the bearer tokens in d, found as
// reBearer and reBearerUnderscore find them in a document, that are
// written with an escape (in the token, the separator, "bearer" or the
// character before it).
func (d *decodedText) bearerSpans() [][2]int {
	var spans [][2]int
	c := d.c
	// The run of bearer token characters read last (see skTokenAtFunc).
	runFrom, runEnd, lastMark := -1, -1, -1
	for i := 0; i+len("bearer") < len(c); i++ {
		if c[i]|0x20 != 'b' || !hasFoldAt(c, i, "bearer") || i > 0 && isASCIIAlnum(c[i-1]) && !d.esc[i-1] {
			continue
		}
		j := i + len("bearer")
		underscore := c[j] == '_'
		for j < len(c) && (underscore && c[j] == '_' || !underscore && isBlank(c[j])) {
			j++
		}
		if j == i+len("bearer") {
			continue
		}
		if !(runFrom <= j && j <= runEnd) {
			runFrom, runEnd, lastMark = j, j, -1
			for runEnd < len(c) && isBearerChar(c[runEnd]) {
				if isBearerMark(c[runEnd]) {
					lastMark = runEnd
				}
				runEnd++
			}
		}
		n := runEnd - j
		// After '_' as bearerUnderscore reads it: a mark, or a long run.
		if underscore && (n < minBearerUnderscore || lastMark < j && n < minSKWeakLongToken) || !underscore && n < minBearer {
			continue
		}
		if d.escaped(i-1, runEnd) {
			spans = append(spans, [2]int{j, runEnd})
		}
		i = runEnd - 1
	}
	return spans
}

// isBlank reports whether c is white space as reBearer's separator reads
// it (a JSON escape of one is decoded to a space).
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// isBearerChar reports whether c may be in a bearer token.
func isBearerChar(c byte) bool {
	return isWordChar(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '='
}

// isSecretRun reports whether run, a decoded run of word characters, is
// the client's key or holds a run secret.
func (rd redactor) isSecretRun(run []byte) bool {
	if rd.key != nil && rd.mayHoldKey(run) {
		if s := string(run); rd.key(s) != s {
			return true
		}
	}
	if rd.values != nil {
		s := string(run)
		return rd.values.Scrub(s) != s
	}
	return false
}

// skipBackslashes returns the index after the run of backslashes at
// text[i], or i+1 when text[i] is not one.
func skipBackslashes(text []byte, i int) int {
	j := i + 1
	for text[i] == '\\' && j < len(text) && text[j] == '\\' {
		j++
	}
	return j
}

// escapedTokenChar returns the length of the \u00XX escape of a token
// character (isBearerChar: a word character or one of . ~ + / =) at
// text[i], behind one or more backslashes (JSON quoted in text escapes its
// own escapes again), or 0; read is how many bytes it examined.
func escapedTokenChar(text []byte, i int) (n, read int) {
	j := i
	for j < len(text) && text[j] == '\\' {
		j++
	}
	read = j - i + 1
	if j == i || j+5 > len(text) || text[j] != 'u' || text[j+1] != '0' || text[j+2] != '0' || !isHex(text[j+3]) || !isHex(text[j+4]) {
		return 0, read
	}
	if !isBearerChar(unhex(text[j+3])<<4 | unhex(text[j+4])) {
		return 0, read
	}
	return j + 5 - i, read
}

// hasEscapedTokenChar reports whether b holds a \u00XX escape of a token
// character, at any depth of quoting, or an escaped '/' (\/).
func hasEscapedTokenChar(b []byte) bool {
	for off := 0; ; {
		k := bytes.Index(b[off:], []byte("u00"))
		if k < 0 {
			return bytes.Contains(b, []byte(`\/`))
		}
		k += off
		if k > 0 && b[k-1] == '\\' && k+4 < len(b) && isHex(b[k+3]) && isHex(b[k+4]) && isBearerChar(unhex(b[k+3])<<4|unhex(b[k+4])) {
			return true
		}
		off = k + 1
	}
}

func isWordChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

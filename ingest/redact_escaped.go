package ingest

import "bytes"

// redactEscapedTokens redacts, in the JSON document b, a secret token some
// of whose characters are spelled as \u escapes (sk\u005flive_..., as a
// test prints a JSON body an encoder wrote so, or as JSON quoted in text
// escapes it again): the rules below match a token as written, so such a
// spelling would pass them. A token is compared decoded: a run of word
// characters ([A-Za-z0-9_-]) and \u00XX escapes of them, at any depth of
// quoting, inside a string of b, that holds an escape. It is replaced
// whole when decoded it is a secret (an sk_ token, the client's key, a
// run secret). b is returned as is when no escape of a word character is
// in it, which is the common case: the check is a search for "u00".
func (rd redactor) redactEscapedTokens(b []byte) []byte {
	if !hasEscapedWordChar(b) {
		return b
	}
	var out []byte
	last := 0
	// T is a string's decoded text; at[i] is the offset in b of the
	// escape or byte T[i] came from, at[len(T)] the string's end.
	var text []byte
	var at []int
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
		for _, sp := range rd.escapedSecretSpans(text, at) {
			out = append(append(out, b[last:at[sp[0]]]...), Redacted...)
			last = at[sp[1]]
		}
		i = j
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// escapedSecretSpans returns the spans of text, a string's decoded text,
// of the tokens written with an escape that decode to a secret; at maps
// text to the document (a character written as an escape there spans
// more than one byte).
func (rd redactor) escapedSecretSpans(text []byte, at []int) [][2]int {
	var spans [][2]int
	for i := 0; i < len(text); {
		if !isWordChar(text[i]) && escapedWordChar(text, i) == 0 {
			// Every backslash of a run ends where the run does, so none
			// of them starts an escape when its first does not: skip the
			// run, or a long one is read again from each of its bytes.
			i = skipBackslashes(text, i)
			continue
		}
		start, escaped := i, false
		var tok []byte
		for i < len(text) {
			if isWordChar(text[i]) {
				tok = append(tok, text[i])
				escaped = escaped || at[i+1]-at[i] > 1
				i++
			} else if n := escapedWordChar(text, i); n > 0 {
				tok = append(tok, unhex(text[i+n-2])<<4|unhex(text[i+n-1]))
				i += n
				escaped = true
			} else {
				break
			}
		}
		if escaped && rd.isSecretToken(tok) {
			spans = append(spans, [2]int{start, i})
		}
	}
	return spans
}

// isSecretToken reports whether tok, a decoded token, is or holds a
// secret the rules replace.
func (rd redactor) isSecretToken(tok []byte) bool {
	if k, _ := skTokenAt(tok, 0); k >= 0 {
		return true
	}
	if rd.key != nil && bytes.Contains(tok, []byte("sk_")) {
		if s := string(tok); rd.key(s) != s {
			return true
		}
	}
	for _, v := range rd.values {
		if bytes.Contains(tok, v) {
			return true
		}
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

// escapedWordChar returns the length of the \u00XX escape of a word
// character at text[i], behind one or more backslashes (JSON quoted in
// text escapes its own escapes again), or 0.
func escapedWordChar(text []byte, i int) int {
	j := i
	for j < len(text) && text[j] == '\\' {
		j++
	}
	if j == i || j+5 > len(text) || text[j] != 'u' || text[j+1] != '0' || text[j+2] != '0' || !isHex(text[j+3]) || !isHex(text[j+4]) {
		return 0
	}
	if !isWordChar(unhex(text[j+3])<<4 | unhex(text[j+4])) {
		return 0
	}
	return j + 5 - i
}

// hasEscapedWordChar reports whether b holds a \u00XX escape of a word
// character, at any depth of quoting.
func hasEscapedWordChar(b []byte) bool {
	for off := 0; ; {
		k := bytes.Index(b[off:], []byte("u00"))
		if k < 0 {
			return false
		}
		k += off
		if k > 0 && b[k-1] == '\\' && k+4 < len(b) && isHex(b[k+3]) && isHex(b[k+4]) && isWordChar(unhex(b[k+3])<<4|unhex(b[k+4])) {
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

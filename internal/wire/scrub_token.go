package wire

import "strings"

// replaceTokens replaces with repl each occurrence of v in s that stands
// as a whole token (wholeToken). It allocates only when it replaces, and
// each strings.Index call starts past the last, so the work is linear in
// len(s) times len(v) at worst; v is short here (under minScrubbed).
func replaceTokens(s, v, repl string) string {
	var b strings.Builder
	last := 0
	for from := 0; from <= len(s)-len(v); {
		i := strings.Index(s[from:], v)
		if i < 0 {
			break
		}
		at := from + i
		if !wholeToken(s, at, at+len(v)) {
			from = at + 1
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(s))
		}
		b.WriteString(s[last:at])
		b.WriteString(repl)
		last = at + len(v)
		from = last
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// wholeToken reports whether s[i:j] is not part of a longer run of ASCII
// letters and digits: at each end, either the match's own byte or its
// neighbour outside is no ASCII letter or digit. Unlike a regexp's \b,
// '_' and every non-ASCII byte are edges: a value next to one is taken
// out (more than needed, never less).
func wholeToken(s string, i, j int) bool {
	if i > 0 && isWordByte(s[i-1]) && isWordByte(s[i]) {
		return false
	}
	return j == len(s) || !isWordByte(s[j]) || !isWordByte(s[j-1])
}

func isWordByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// jsonEscapes reports whether encoding/json writes v other than as it is:
// a quote, backslash, control byte, HTML-sensitive <, > or &, or any
// non-ASCII byte (invalid UTF-8, U+2028 and U+2029 are escaped; other
// runes are not, and Marshal then finds nothing to add).
func jsonEscapes(v string) bool {
	for i := range len(v) {
		switch c := v[i]; {
		case c < 0x20, c >= 0x80, c == '"', c == '\\', c == '<', c == '>', c == '&':
			return true
		}
	}
	return false
}

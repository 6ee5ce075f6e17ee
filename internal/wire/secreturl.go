package wire

import (
	"net/url"
	"strings"
)

// RedactSecretQuery returns u with the value of its k query parameters (a
// tunnel URL's secret) and its userinfo password replaced by REDACTED, for
// printing and logging; the rest of the query stays as written (order,
// escapes), so a printed URL still names the one it came from. The wire
// value itself is never changed: the service stores and returns the
// plaintext URL in a tunnel's server record. Text that does not parse as a
// URL is replaced entirely, and a query Go cannot parse (it may hold a
// secret for another reader) is replaced whole.
func RedactSecretQuery(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil {
		return "[unparsable URL redacted]"
	}
	changed := false
	if _, ok := p.User.Password(); ok {
		p.User, changed = url.UserPassword(p.User.Username(), "REDACTED"), true
	}
	if p.RawQuery != "" {
		if _, err := url.ParseQuery(p.RawQuery); err != nil {
			p.RawQuery, changed = "REDACTED", true
		} else if q, found := redactPairs(p.RawQuery); found {
			p.RawQuery, changed = q, true
		}
	}
	if !changed {
		return u
	}
	return p.String()
}

// redactPairs replaces the value of every k or K pair of a raw query (the
// name read as url.ParseQuery reads it, so %6B too) where it stands.
func redactPairs(raw string) (string, bool) {
	parts := strings.Split(raw, "&")
	found := false
	for i, part := range parts {
		name, _, _ := strings.Cut(part, "=")
		if IsShownSecretParam(name) {
			parts[i], found = name+"=REDACTED", true
		}
	}
	return strings.Join(parts, "&"), found
}

// IsSecretParam reports whether a raw query pair's name is a tunnel URL's
// secret, k, read as url.ParseQuery reads it (so %6B too): the name the
// relay reads its secret from. Redaction for display also reads K.
func IsSecretParam(name string) bool {
	n, err := url.QueryUnescape(name)
	return err == nil && n == "k"
}

// IsShownSecretParam is IsSecretParam for redaction: K too, as a reader of
// printed text (and RedactSecretParams) may not tell it from k. The relay
// itself accepts only k, so IsSecretParam stays exact for its callers.
func IsShownSecretParam(name string) bool {
	n, err := url.QueryUnescape(name)
	return err == nil && strings.EqualFold(n, "k")
}

// RedactSecretParams replaces, in free text (an error message quoting a
// tunnel URL), the value of every k query parameter, found as
// SecretParamAt finds it, up to the next '&', '#', quote, bracket,
// backslash, white space or percent-encoded '&', '#' or '"'.
func RedactSecretParams(s string) string {
	if !strings.ContainsAny(s, "=%") { // no '=' however spelled: nothing to find
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		start, ok := SecretParamAt(s, i)
		if !ok {
			continue
		}
		end := start
		for end < len(s) && !strings.ContainsRune("&#\"'<>()[]{}\\ \t\r\n", rune(s[end])) && !encodedStop(s, end) {
			end++
		}
		if end > start && s[start:end] != "REDACTED" {
			b.WriteString(s[last:start])
			b.WriteString("REDACTED")
			last = end
		}
		i = max(i, end-1)
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// SecretParamAt reports whether a tunnel URL's k parameter starts at s[i]
// and where its value begins. This is the one rule for its spellings: the
// SDK's errors (RedactSecretParams) and the reporter's (ingest's rules,
// hence spools, uploads and the CLI's echo) read it. The parameter is
//   - a separator: '?' or '&', also percent-encoded (%3F, %26) once or
//     twice (%253F, %2526: a URL inside a URL inside a URL), as JSON
//     escapes them (\u003f, \u0026), and '&' as HTML or XML escape it,
//     any number of times (&amp;, &amp;amp;, &#38;, &#x26;, zeros before
//     the number); or ';' (%3B, %253B, \u003b), which some query parsers
//     read as '&', in a query only (see inQuery): after ';' in code
//     (for(i=0;k=next(i);...) is no secret;
//   - the name: k as the relay reads it, percent-decoded (%6B, %256B; see
//     IsSecretParam), and K as a reader may not tell it from k (%4B);
//   - '=', also %3D, %253D.
//
// Every letter and hex digit in these is read in either case. s[i] is
// one of SecretParamStart's bytes when a parameter starts there.
func SecretParamAt[T ~string | ~[]byte](s T, i int) (int, bool) {
	j, semi, ok := paramSepEnd(s, i)
	if !ok {
		return 0, false
	}
	if j, ok = afterFold(s, j, "k", "%6b", "%4b", "%256b", "%254b"); !ok {
		return 0, false
	}
	if j, ok = afterFold(s, j, "=", "%3d", "%253d"); !ok || semi && !inQuery(s, i) {
		return 0, false
	}
	return j, true
}

// SecretParamStart reports whether c may start a k parameter (its
// separator's first byte): a scanner may skip other bytes.
func SecretParamStart(c byte) bool {
	return c == '?' || c == '&' || c == ';' || c == '%' || c == '\\'
}

// paramSepEnd returns the index after the separator at s[i], and whether
// it is a ';'.
func paramSepEnd[T ~string | ~[]byte](s T, i int) (end int, semi, ok bool) {
	if i >= len(s) {
		return 0, false, false
	}
	switch s[i] {
	case '?':
		return i + 1, false, true
	case ';':
		return i + 1, true, true
	case '&':
		return afterAmpEscapes(s, i+1), false, true
	case '%':
		if j, ok := afterFold(s, i, "%3b", "%253b"); ok {
			return j, true, true
		}
		j, ok := afterFold(s, i, "%3f", "%26", "%253f", "%2526")
		return j, false, ok
	case '\\':
		if j, ok := afterFold(s, i, `\u0026`); ok {
			return afterAmpEscapes(s, j), false, true
		}
		if j, ok := afterFold(s, i, `\u003b`); ok {
			return j, true, true
		}
		j, ok := afterFold(s, i, `\u003f`)
		return j, false, ok
	}
	return 0, false, false
}

// Bounds on inQuery's look back: the bytes, and the query parts (';'
// separators) it reads. Each ';' reads back past at most maxQueryParts
// others, so text full of them is still read in linear time. Text
// redacted in pieces (the CLI's echo of a long line) keeps at least
// MaxQueryBack bytes before a ';' it has not seen yet, so the rule reads
// the same text as it would in the whole line.
const (
	MaxQueryBack  = 4 << 10
	maxQueryParts = 16
)

// inQuery reports whether the ';' (however spelled) at s[i] separates the
// parts of a URL's query: it follows a part name=value (the name made of
// the bytes a query's names are: letters, digits, -._~+% and escapes),
// and, through parts and bytes a query holds, a '?' or an '&' (however
// spelled) before it. Code has ';' after an assignment too, but not
// there: for(i=0;k=...) has '(' before i=0, "var a=1;k=..." white
// space, "a=c?1:2;k=..." no '=' in the part after its '?', and
// "x&&y=1;k=..." the operator '&&'. A value (after its part's '=') may
// hold ' ( and ) too, which RFC 3986 allows in a query (?q=f(x);k=...),
// but a name may not: for(i=0;k=...) has '(' before i.
func inQuery[T ~string | ~[]byte](s T, i int) bool {
	eq, nameOK := false, false // the part before s[i]: its '=' seen, its name so far a name
	valueOnly := false         // a byte only a value holds read since the last '=' (in a name, if no '=' is before it)
	first, parts := true, 0
	for j := i - 1; j >= 0 && i-j <= MaxQueryBack; j-- {
		c := s[j]
		kind := byte(0)
		switch {
		case c == '?':
			kind = '?'
		case c == '&':
			if j > 0 && s[j-1] == '&' {
				return false
			}
			kind = '&'
		case c == ';':
			kind = ';'
			if ampEscapeEndsAt(s, j) {
				kind = '&'
			}
		case c == '=':
			kind = '='
		case c == '%' || c == '\\':
			switch {
			case hasFoldAt(s, j, "%3f") || hasFoldAt(s, j, "%253f") || hasFoldAt(s, j, `\u003f`):
				kind = '?'
			case hasFoldAt(s, j, "%26") || hasFoldAt(s, j, "%2526") || hasFoldAt(s, j, `\u0026`):
				kind = '&'
			case hasFoldAt(s, j, "%3b") || hasFoldAt(s, j, "%253b") || hasFoldAt(s, j, `\u003b`):
				kind = ';'
			case hasFoldAt(s, j, "%3d") || hasFoldAt(s, j, "%253d") || hasFoldAt(s, j, `\u003d`):
				kind = '='
			}
		}
		if valueOnly && kind != 0 && kind != '=' {
			return false
		}
		switch kind {
		case '?', '&':
			return !first || eq && nameOK
		case ';':
			if first && !(eq && nameOK) {
				return false
			}
			if parts++; parts > maxQueryParts {
				return false
			}
			first = false
		case '=':
			eq, nameOK, valueOnly = true, true, false
		default:
			switch {
			case queryValueByte(c):
				valueOnly = true
			case !queryByte(c):
				return false
			}
			nameOK = nameOK && queryNameByte(c)
		}
	}
	return false
}

// queryNameByte reports whether c may be in a query parameter's name as
// text writes it (a percent or JSON escape's bytes included).
func queryNameByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~' || c == '+' || c == '%' || c == '\\'
}

// queryByte reports whether c may be in a query as text writes it: what
// RFC 3986 allows there but the separators, and bytes of UTF-8, less the
// bytes of queryValueByte.
func queryByte(c byte) bool {
	return queryNameByte(c) || c >= 0x80 || strings.IndexByte("!$*,/:@", c) >= 0
}

// queryValueByte reports whether c is one of the bytes RFC 3986 allows in
// a query (sub-delims) that inQuery takes only in a value, after its
// part's '=': code has them where a query's names would be.
func queryValueByte(c byte) bool {
	return c == '\'' || c == '(' || c == ')'
}

// ampEscapeEndsAt reports whether the ';' at s[j] ends an HTML or XML
// escape of '&' (&amp;, &#38;, &#x26;).
func ampEscapeEndsAt[T ~string | ~[]byte](s T, j int) bool {
	for k := j - 1; k >= 0 && j-k <= 8; k-- {
		if s[k] == '&' {
			return afterAmpEscapes(s, k+1) == j+1
		}
	}
	return false
}

// afterAmpEscapes returns the index after what, following an '&' at s[j],
// makes it an HTML escape of '&', escaped again any number of times
// ("amp;", "#38;", "#x26;").
func afterAmpEscapes[T ~string | ~[]byte](s T, j int) int {
	for {
		if k, ok := afterFold(s, j, "amp;"); ok {
			j = k
			continue
		}
		k, ok := afterFold(s, j, "#x", "#")
		if !ok {
			return j
		}
		hex := k-j == 2
		for k < len(s) && s[k] == '0' {
			k++
		}
		num := "38;"
		if hex {
			num = "26;"
		}
		if k, ok = afterFold(s, k, num); !ok {
			return j
		}
		j = k
	}
}

// afterFold returns the index after the first of words (lower case ASCII)
// found at s[i] in either case.
func afterFold[T ~string | ~[]byte](s T, i int, words ...string) (int, bool) {
	for _, w := range words {
		if hasFoldAt(s, i, w) {
			return i + len(w), true
		}
	}
	return 0, false
}

// hasFoldAt reports whether s[i:] starts with w (lower case ASCII) in
// either case.
func hasFoldAt[T ~string | ~[]byte](s T, i int, w string) bool {
	if i < 0 || len(s)-i < len(w) {
		return false
	}
	for k := 0; k < len(w); k++ {
		c := s[i+k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != w[k] {
			return false
		}
	}
	return true
}

// encodedStop reports whether s[i:] starts a percent-encoded '&', '#' or
// '"' (encoded once or twice), which ends a value inside an encoded URL.
func encodedStop(s string, i int) bool {
	if i+2 >= len(s) || s[i] != '%' {
		return false
	}
	if hasFoldAt(s, i, "%25") {
		i += 2
		if i+2 >= len(s) {
			return false
		}
	}
	switch strings.ToUpper(s[i+1 : i+3]) {
	case "26", "23", "22":
		return true
	}
	return false
}

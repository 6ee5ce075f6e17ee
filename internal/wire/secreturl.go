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
		if isShownSecretParam(name) {
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

// isShownSecretParam is IsSecretParam for redaction: K too, as a reader of
// printed text (and RedactSecretParams) may not tell it from k. The relay
// itself accepts only k, so IsSecretParam stays exact for its callers.
func isShownSecretParam(name string) bool {
	n, err := url.QueryUnescape(name)
	return err == nil && strings.EqualFold(n, "k")
}

// RedactSecretParams replaces, in free text (an error message quoting a
// tunnel URL), the value of every k query parameter: what follows "k="
// after '?' or '&' (also as JSON escapes "\u0026", percent-encoded inside
// another URL, or as HTML's "&amp;", "&#38;" or "&#x26;"; the name also as %6B, and K, as the
// text is not a URL parsed as the edge parses it), up to the next '&',
// '#', quote, bracket, backslash, white space or percent-encoded '&', '#'
// or '"'.
func RedactSecretParams(s string) string {
	if !strings.ContainsAny(s, "=%") { // no '=' however spelled: nothing to find
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		start, ok := secretParamAt(s, i)
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

// secretParamAt reports whether a k parameter starts at s[i] (its '?' or
// '&', in any of the spellings RedactSecretParams reads) and where its
// value begins.
func secretParamAt(s string, i int) (int, bool) {
	j, ok := afterAny(s, i, "&#x26;", "&#X26;", "&amp;", "&#38;", `\u0026`, `\U0026`, "%3F", "%3f", "%26", "?", "&") // longest first
	if !ok {
		return 0, false
	}
	if j, ok = afterAny(s, j, "k", "K", "%6B", "%6b"); !ok {
		return 0, false
	}
	return afterAny(s, j, "=", "%3D", "%3d")
}

// afterAny returns the index after the first of words found at s[i].
func afterAny(s string, i int, words ...string) (int, bool) {
	for _, w := range words {
		if strings.HasPrefix(s[i:], w) {
			return i + len(w), true
		}
	}
	return 0, false
}

// encodedStop reports whether s[i:] starts a percent-encoded '&', '#' or
// '"', which ends a value inside an encoded URL.
func encodedStop(s string, i int) bool {
	if i+2 >= len(s) || s[i] != '%' {
		return false
	}
	switch strings.ToUpper(s[i+1 : i+3]) {
	case "26", "23", "22":
		return true
	}
	return false
}

package ingest

import (
	"bytes"
	"regexp"
)

// The built-in redaction rules, applied to every result's JSON encoding
// before it is spooled or sent. Token character classes exclude '"' and
// '\', so a match never crosses a JSON string boundary or escape.
var (
	reSKToken = regexp.MustCompile(`\bsk_[A-Za-z0-9][A-Za-z0-9_\-]{7,}`)
	// A header line runs to an escaped newline or the end of the string.
	// No leading \b: in JSON a line starts after "\n", a word character.
	reHeaderLine = regexp.MustCompile(`(?i)((?:proxy-)?authorization|(?:set-)?cookie|x-api-key)(\s*:\s*)(?:[^"\\]|\\[^n])*`)
	reBearer     = regexp.MustCompile(`(?i)\b(bearer)(\s+)[A-Za-z0-9._~+/=\-]{8,}`)
	reURLCreds   = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.\-]*://)[^/\s"\\@]+@`)
)

// Redacted replaces every secret the reporter removes.
const Redacted = "[REDACTED]"

// redactor removes secrets from encoded results. key replaces the client's
// API key (nil when there is no client).
type redactor struct{ key func(string) string }

// apply returns b with secrets replaced; b is returned unchanged (no copy)
// when nothing looks like a secret, which is the common case.
func (rd redactor) apply(b []byte) []byte {
	// Keys always start with sk_, so this test gates the key check too.
	if bytes.Contains(b, []byte("sk_")) {
		if rd.key != nil {
			if s := string(b); rd.key(s) != s {
				b = []byte(rd.key(s))
			}
		}
		b = reSKToken.ReplaceAll(b, []byte(Redacted))
	}
	if containsFold(b, "uthorization") || containsFold(b, "ookie") || containsFold(b, "-api-key") {
		b = reHeaderLine.ReplaceAll(b, []byte("${1}${2}"+Redacted))
	}
	if containsFold(b, "bearer") {
		b = reBearer.ReplaceAll(b, []byte("${1}${2}"+Redacted))
	}
	if bytes.Contains(b, []byte("://")) && bytes.IndexByte(b, '@') >= 0 {
		b = reURLCreds.ReplaceAll(b, []byte("${1}"+Redacted+"@"))
	}
	return b
}

// containsFold is a cheap prefilter: true when b holds word in lower case,
// capitalised or upper case. Other mixes are missed by the prefilter only
// (the rules themselves are case-insensitive).
func containsFold(b []byte, word string) bool {
	for _, v := range foldForms[word] {
		if bytes.Contains(b, v) {
			return true
		}
	}
	return false
}

var foldForms = map[string][][]byte{}

func init() {
	for _, w := range []string{"uthorization", "ookie", "-api-key", "bearer"} {
		up := bytes.ToUpper([]byte(w))
		capd := []byte(w)
		capd[0] = up[0]
		foldForms[w] = [][]byte{[]byte(w), up, capd}
	}
}

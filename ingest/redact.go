package ingest

import (
	"bytes"
	"regexp"
)

// The built-in redaction rules, applied to every result's JSON encoding
// before it is spooled or sent. Token character classes exclude '"' and
// '\', so a match never crosses a JSON string boundary or escape.
var (
	reSKToken  = regexp.MustCompile(`\bsk_[A-Za-z0-9][A-Za-z0-9_\-]{7,}`)
	reBearer   = regexp.MustCompile(`(?i)\b(bearer)(\s+)[A-Za-z0-9._~+/=\-]{8,}`)
	reURLCreds = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.\-]*://)[^/\s"\\@]+@`)
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
	b = redactHeaders(b)
	if containsFoldAt(b, "bearer", 0) {
		b = reBearer.ReplaceAll(b, []byte("${1}${2}"+Redacted))
	}
	if bytes.Contains(b, []byte("://")) && bytes.IndexByte(b, '@') >= 0 {
		b = reURLCreds.ReplaceAll(b, []byte("${1}"+Redacted+"@"))
	}
	return b
}

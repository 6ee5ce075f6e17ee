package ingest

// The header redactor as it was at 7757a9c, kept for the differential
// test in redact_differential_test.go: the redactor now must never keep a
// secret this one removed.

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

var oldSecretHeaders = []string{"authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key"}

var (
	oldReHeaderName  = regexp.MustCompile(`(?i)(?:proxy-)?authorization|(?:set-)?cookie|x-api-key`)
	oldReHeaderValue = regexp.MustCompile(`^["']?[ \t]*[:=][ \t]*(\[\]string\{[^}]*\}|\[[^\]]*\]|"[^"]*"|'[^']*'|[^\r\n]*)`)
)

// redactHeaders rewrites the JSON document b so that no secret header's
// value survives, wherever a header name appears: inside any string value
// (re-encoded after redaction, so escapes stay valid) and as an object key
// ({"X-Api-Key": ...}, whose string or array value is replaced). b is
// returned as is when there is nothing to redact.
func oldRedactHeaders(b []byte) []byte {
	if !oldHasHeaderName(b) {
		return b
	}
	var out []byte
	last := 0
	splice := func(from, to int, with []byte) {
		out = append(append(out, b[last:from]...), with...)
		last = to
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end := oldStringEnd(b, i)
		if end < 0 {
			break // not valid JSON: left to the other rules
		}
		lit := b[i:end]
		if !oldHasHeaderName(lit) {
			i = end - 1
			continue
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			i = end - 1
			continue
		}
		if v := skipWS(b, end); v < len(b) && b[v] == ':' && oldIsSecretHeader(s) {
			// An object key: replace its value.
			vs := skipWS(b, v+1)
			if ve, rep := oldRedactedValue(b, vs); ve > vs {
				splice(vs, ve, rep)
				i = ve - 1
				continue
			}
		}
		if r := oldRedactHeaderText(s); r != s {
			splice(i, end, oldEncodeString(r))
		}
		i = end - 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// redactHeaderText replaces each secret header's value in s, keeping the
// shape of the value (brackets, braces, quotes) so the text still reads.
// A name found inside a value already redacted extends the redaction to
// its own value, so one header cannot shield another's secret.
func oldRedactHeaderText(s string) string {
	var b strings.Builder
	last, end := 0, 0
	for _, m := range oldReHeaderName.FindAllStringIndex(s, -1) {
		v := oldReHeaderValue.FindStringSubmatchIndex(s[m[1]:])
		if v == nil || v[3] == v[2] {
			continue // a name without a value, as in "authorization failed"
		}
		vStart, vEnd := m[1]+v[2], m[1]+v[3]
		if m[0] < end {
			if vEnd > end {
				last, end = vEnd, vEnd // drop the rest of that value too
			}
			continue
		}
		b.WriteString(s[last:vStart])
		b.WriteString(oldRedactedShape(s[vStart:vEnd]))
		last, end = vEnd, vEnd
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactedShape is Redacted in the delimiters of val.
func oldRedactedShape(val string) string {
	switch {
	case strings.HasPrefix(val, "[]string{"):
		return `[]string{"` + Redacted + `"}`
	case strings.HasPrefix(val, "["):
		return "[" + Redacted + "]"
	case strings.HasPrefix(val, `"`):
		return `"` + Redacted + `"`
	case strings.HasPrefix(val, "'"):
		return "'" + Redacted + "'"
	}
	return Redacted
}

// redactedValue returns the end of the JSON value at b[i] and its
// replacement when it is a string or an array (of header values); ok is
// signalled by end > i.
func oldRedactedValue(b []byte, i int) (int, []byte) {
	if i >= len(b) {
		return i, nil
	}
	switch b[i] {
	case '"':
		if end := oldStringEnd(b, i); end > 0 {
			return end, []byte(`"` + Redacted + `"`)
		}
	case '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := oldStringEnd(b, j)
				if end < 0 {
					return i, nil
				}
				j = end - 1
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return j + 1, []byte(`["` + Redacted + `"]`)
				}
			}
		}
	}
	return i, nil
}

// stringEnd returns the index after the JSON string starting at b[i], or -1.
func oldStringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

func oldIsSecretHeader(name string) bool {
	for _, h := range oldSecretHeaders {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return false
}

// encodeString encodes s as the reporter's encoder does (no HTML escaping).
func oldEncodeString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// hasHeaderName reports whether b holds a secret header's name in any
// ASCII case: authorization, api-key (x-api-key too) or cookie.
func oldHasHeaderName(b []byte) bool {
	return oldContainsFoldAt(b, "authorization", 7) || oldContainsFoldAt(b, "api-key", 4) || oldContainsFoldAt(b, "cookie", 3)
}

// hasFoldAt reports whether b[i:] starts with word (lower-case ASCII) in
// any ASCII case.
func oldHasFoldAt(b []byte, i int, word string) bool {
	if len(b)-i < len(word) {
		return false
	}
	for k := 0; k < len(word); k++ {
		c := b[i+k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[k] {
			return false
		}
	}
	return true
}

// containsFoldAt reports whether b contains word (lower-case ASCII) in any
// ASCII case. Candidates are found with bytes.IndexByte (vectorized) on
// word[pivot] in both cases, a letter picked to be rare in test output, so
// a result without it costs two fast scans instead of a look at every byte.
func oldContainsFoldAt(b []byte, word string, pivot int) bool {
	for _, c := range [2]byte{word[pivot], word[pivot] - ('a' - 'A')} {
		for off := 0; off < len(b); {
			j := bytes.IndexByte(b[off:], c)
			if j < 0 {
				break
			}
			j += off
			if i := j - pivot; i >= 0 && oldHasFoldAt(b, i, word) {
				return true
			}
			off = j + 1
		}
	}
	return false
}

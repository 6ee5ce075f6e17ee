package ingest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// secretHeaders are the header names whose values are secrets, lower case:
// every spelling of the API-key header (with or without X-, with '-', '_'
// or nothing between its words, as headers, query parameters and JSON keys
// write it) and X-Auth-Token among them.
var secretHeaders = []string{"authorization", "proxy-authorization", "cookie", "set-cookie",
	"x-api-key", "api-key", "x-api_key", "api_key", "x-apikey", "apikey", "x-auth-token"}

// reHeaderName finds a secret header's name in decoded text, in any case;
// reHeaderValue then reads the separator and value after it, in the
// spellings Go and tools print: "Name: value" lines, name=value pairs,
// http.Header printed with %v (map[Name:[v1 v2]]) or %#v
// (http.Header{"Name":[]string{"v"}}), JSON ({"Name":["v"]}, "Name": "v")
// and a HAR-style {"name":"Name","value":"v"} pair. A bare value runs to
// the end of its source line, in widget HTML too: no tag is taken to end
// it, since a regexp cannot tell a <br> or block tag that ends the line
// shown from one inside a comment, a quoted attribute or a <script>, and
// redacting the rest of a one-line page is the safe side.
var (
	reHeaderName  = regexp.MustCompile(`(?i)(?:proxy-)?authorization|(?:set-)?cookie|(?:x-)?api[-_]?key|x-auth-token`)
	reHeaderValue = regexp.MustCompile(`^(?:["']?[ \t]*[:=]|"[ \t]*,[ \t]*"value"[ \t]*:)[ \t]*(\[\]string\{[^}]*\}|\[[^\]]*\]|"[^"]*"|'[^']*'|[^\r\n]*)`)
)

// redactHeaders rewrites the JSON document b so that no secret header's
// value survives, wherever a header name appears: inside any string value
// (re-encoded after redaction, so escapes stay valid), as an object key
// ({"X-Api-Key": ...}, whose string or array value is replaced) and as the
// name of a name/value pair ({"name":"Authorization","value":...}). b is
// returned as is when there is nothing to redact. Strings that hold HTML
// (every one when html is set, else a widgetHtml field's) are read as
// widget HTML (see redactHeaderText).
func redactHeaders(b []byte, html bool) []byte {
	if !hasHeaderName(b) {
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
		end := stringEnd(b, i)
		if end < 0 {
			break // not valid JSON: left to the other rules
		}
		lit := b[i:end]
		if !hasHeaderName(lit) {
			i = end - 1
			continue
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			i = end - 1
			continue
		}
		if v := skipWS(b, end); v < len(b) && b[v] == ':' && isSecretHeader(s) {
			// An object key: replace its value.
			vs := skipWS(b, v+1)
			if ve, rep := redactedValue(b, vs); ve > vs {
				splice(vs, ve, rep)
				i = ve - 1
				continue
			}
		}
		if vs := pairValue(b, end); vs > 0 && isSecretHeader(s) {
			// The name of a {"name":...,"value":...} pair: replace the value.
			if ve, rep := redactedValue(b, vs); ve > vs {
				splice(vs, ve, rep)
				i = ve - 1
				continue
			}
		}
		if r := redactHeaderText(s, html || isWidgetHTML(b, i)); r != s {
			splice(i, end, encodeString(r))
		}
		i = end - 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// pairValue returns where the value of a {"name":...,"value":...} pair
// starts when the JSON string ending at b[end] is followed by its
// "value" key, else 0.
func pairValue(b []byte, end int) int {
	i := skipWS(b, end)
	if i >= len(b) || b[i] != ',' {
		return 0
	}
	i = skipWS(b, i+1)
	if !bytes.HasPrefix(b[i:], []byte(`"value"`)) {
		return 0
	}
	i = skipWS(b, i+len(`"value"`))
	if i >= len(b) || b[i] != ':' {
		return 0
	}
	return skipWS(b, i+1)
}

// isWidgetHTML reports whether the JSON string at b[i] is the value of a
// widgetHtml key.
func isWidgetHTML(b []byte, i int) bool {
	return bytes.HasSuffix(bytes.TrimRight(b[:i], " \t\r\n"), []byte(`"widgetHtml":`))
}

// redactHeaderText replaces each secret header's value in s, keeping the
// shape of the value (brackets, braces, quotes) so the text still reads;
// html marks s as widget HTML, whose bare values run to the end of the
// source line as text's do. A name found inside a value already redacted
// extends the redaction to its own value, so one header cannot shield
// another's secret.
func redactHeaderText(s string, html bool) string {
	var b strings.Builder
	last, end := 0, 0
	for _, m := range reHeaderName.FindAllStringIndex(s, -1) {
		v := reHeaderValue.FindStringSubmatchIndex(s[m[1]:])
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
		b.WriteString(redactedShape(s[vStart:vEnd]))
		last, end = vEnd, vEnd
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactedShape is Redacted in the delimiters of val.
func redactedShape(val string) string {
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
func redactedValue(b []byte, i int) (int, []byte) {
	if i >= len(b) {
		return i, nil
	}
	switch b[i] {
	case '"':
		if end := stringEnd(b, i); end > 0 {
			return end, []byte(`"` + Redacted + `"`)
		}
	case '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := stringEnd(b, j)
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
func stringEnd(b []byte, i int) int {
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

func isSecretHeader(name string) bool {
	for _, h := range secretHeaders {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return false
}

// encodeString encodes s as the reporter's encoder does (no HTML escaping).
func encodeString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// hasHeaderName reports whether b holds a secret header's name in any
// ASCII case: authorization, cookie, or one of keyWords.
func hasHeaderName(b []byte) bool {
	return containsFoldAt(b, "authorization", 7) || containsFoldAt(b, "cookie", 3) || containsKeyWord(b)
}

// keyWords are the secret header names (or their tails) that have a 'k',
// each with its offset: containsKeyWord finds them all in one search.
var keyWords = [...]struct {
	word string
	k    int
}{{"api-key", 4}, {"api_key", 4}, {"apikey", 3}, {"auth-token", 7}}

// containsKeyWord reports whether b contains one of keyWords in any ASCII
// case, finding candidates by their 'k' as containsFoldAt does.
func containsKeyWord(b []byte) bool {
	for _, c := range [2]byte{'k', 'K'} {
		for off := 0; off < len(b); {
			j := bytes.IndexByte(b[off:], c)
			if j < 0 {
				break
			}
			j += off
			for _, w := range keyWords {
				if i := j - w.k; i >= 0 && hasFoldAt(b, i, w.word) {
					return true
				}
			}
			off = j + 1
		}
	}
	return false
}

// hasFoldAt reports whether b[i:] starts with word (lower-case ASCII) in
// any ASCII case.
func hasFoldAt(b []byte, i int, word string) bool {
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
func containsFoldAt(b []byte, word string, pivot int) bool {
	for _, c := range [2]byte{word[pivot], word[pivot] - ('a' - 'A')} {
		for off := 0; off < len(b); {
			j := bytes.IndexByte(b[off:], c)
			if j < 0 {
				break
			}
			j += off
			if i := j - pivot; i >= 0 && hasFoldAt(b, i, word) {
				return true
			}
			off = j + 1
		}
	}
	return false
}

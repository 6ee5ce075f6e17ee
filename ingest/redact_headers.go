package ingest

import (
	"bytes"
	"encoding/json"
	"strings"
)

// secretHeaders are the header names whose values are secrets, lower case:
// every spelling of the API-key header (with or without X-, with '-', '_'
// or nothing between its words, as headers, query parameters and JSON keys
// write it) and X-Auth-Token among them.
var secretHeaders = []string{"authorization", "proxy-authorization", "cookie", "set-cookie",
	"x-api-key", "api-key", "x-api_key", "api_key", "x-apikey", "apikey", "x-auth-token"}

// secretHeaderKeys are secretHeaders without their '-' and '_', which
// isSecretHeader drops too: X_API_KEY, x_apikey, X_Auth_Token, apiKey and
// xApiKey are all one name.
var secretHeaderKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, h := range secretHeaders {
		m[strings.NewReplacer("-", "", "_", "").Replace(h)] = true
	}
	return m
}()

// redactHeaders rewrites the JSON document b so that no secret header's
// value survives, wherever a header name appears: inside any string value
// (re-encoded after redaction, so escapes stay valid), as an object key
// ({"X-Api-Key": ...}, whose value is replaced, a string, an array, an
// object or a number) and as the name of a name/value pair
// ({"name":"Authorization","value":...}); and a "cookies" list's cookies
// have their values replaced (see redactPairs). b is
// returned as is when there is nothing to redact. Strings that hold HTML
// (every one when html is set, else a widgetHtml field's) are read as
// widget HTML (see redactHeaderText).
func redactHeaders(b []byte, html bool) []byte {
	if !hasHeaderName(b) {
		return b
	}
	b = redactPairs(b)
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
		if r := redactStringText(s, html, html || isWidgetHTML(b, i)); r != s {
			splice(i, end, encodeString(r))
		}
		i = end - 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// redactStringText redacts the text s of a JSON string: its header
// lines, and a JSON document in it (a response body in an error, with
// text around it), whose keys and name/value pairs are read as the
// result's are. The text is read first, as it was before documents in
// it were: a value there may run on past the document's delimiters (to
// the end of a line that a folded header, escaped as \r\n in the
// document, does not end), and nothing it redacts may survive. The
// document is then redacted in what remains, when it is still one; when
// the text's values broke it, the document is redacted in s first and
// the text read after, a value the document pass redacted running to
// the end of its line (see redactHeaderText), as it may have before.
func redactStringText(s string, docHTML, html bool) string {
	k, e := strings.IndexAny(s, "{["), strings.LastIndexAny(s, "}]")
	if k < 0 || e <= k || !json.Valid([]byte(s[k:e+1])) {
		return redactHeaderText(s, html, false)
	}
	t := redactHeaderText(s, html, false)
	if k, e := strings.IndexAny(t, "{["), strings.LastIndexAny(t, "}]"); k >= 0 && e > k && json.Valid([]byte(t[k:e+1])) {
		return t[:k] + string(redactHeaders([]byte(t[k:e+1]), docHTML)) + t[e+1:]
	}
	return redactHeaderText(s[:k]+string(redactHeaders([]byte(s[k:e+1]), docHTML))+s[e+1:], html, true)
}

// isWidgetHTML reports whether the JSON string at b[i] is the value of a
// widgetHtml key.
func isWidgetHTML(b []byte, i int) bool {
	return bytes.HasSuffix(bytes.TrimRight(b[:i], " \t\r\n"), []byte(`"widgetHtml":`))
}

// redactHeaderText replaces each secret header's value in s, keeping the
// shape of the value (brackets, braces, quotes) so the text still reads;
// html marks s as widget HTML, whose bare values run to the end of the
// source line as text's do, and further in the forms htmlValue and
// wrapped read. A name found inside a value already redacted
// extends the redaction to its own value, so one header cannot shield
// another's secret. It is linear in len(s): names come in order, and every
// search for a value's end goes through a valueScanner.
//
// redone marks s as redacted already in part (see redactStringText): a
// value that starts as one redacted does (redactedFormAt) then runs to the
// end of its line.
func redactHeaderText(s string, html, redone bool) string {
	var b strings.Builder
	sc := newValueScanner(s)
	last, end := 0, 0
	for _, m := range headerNames(s) {
		vStart, vEnd := sc.headerValue(m[1])
		bracketed := vEnd > vStart // a closed value here ends at its delimiter
		if redone && vEnd > vStart && redactedFormAt(s, vStart) > 0 {
			// A value redacted already, by the pass over a JSON document
			// in s: what it was may have run on past its delimiters, so it
			// runs to the end of the line, as a bare value does.
			vEnd = max(vEnd, sc.lineEnd(vStart))
		} else if html {
			switch {
			case vEnd == vStart:
				vStart, vEnd = sc.htmlValue(m[0], m[1])
				bracketed = false // a cell or a line, read as a bare value
			case !strings.ContainsRune(`["'`, rune(s[vStart])):
				vEnd = sc.wrapped(vStart, vEnd)
			}
		}
		if vEnd == vStart {
			continue // a name without a value, as in "authorization failed"
		}
		if n := redactedFormAt(s, vStart); vEnd < vStart+n {
			// A value redacted already is one value (see redactedShape):
			// ["[REDACTED]"] would otherwise end at its first ']', and
			// redacting again must change nothing. What follows it is
			// read next, as after any closed value.
			vEnd = vStart + n
		}
		switch {
		case !closedValue(s, vStart, vEnd):
			vEnd = sc.folded(vEnd)
		case bracketed && vEnd > end && !valueEnds(s, vStart, vEnd):
			// A quoted or bracketed value ends at its delimiter only where
			// a value ends in its spelling: "Authorization: [x] Basic
			// hunter2" is a header line, whose value is the whole line.
			vEnd = sc.folded(sc.restOfLine(vEnd))
		}
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

// redactedForms are the shapes a value redacted in a JSON document takes
// (redactedValue, redactPairs and redactedShape write them).
var redactedForms = [...]string{Redacted, `"` + Redacted + `"`, `'` + Redacted + `'`, `["` + Redacted + `"]`,
	"[" + Redacted + "]", `[]string{"` + Redacted + `"}`}

// redactedFormAt returns the length of the longest of redactedForms at
// s[i] (a value redacted already), or 0.
func redactedFormAt(s string, i int) int {
	n := 0
	for _, f := range redactedForms {
		if len(f) > n && strings.HasPrefix(s[i:], f) {
			n = len(f)
		}
	}
	return n
}

// headerNames returns the start and end of every secret header's name in
// decoded text, in order and in any ASCII case; headerValue then reads
// the separator and value after each, in the spellings Go and tools
// print: "Name: value" lines, name=value pairs, http.Header printed with
// %v (map[Name:[v1 v2]]) or %#v (http.Header{"Name":[]string{"v"}}), JSON
// ({"Name":["v"]}, "Name": "v") and a HAR-style {"name":"Name","value":"v"}
// pair. A bare value runs to the end of its source line, in widget HTML
// too: no tag is taken to end it, since a <br> or block tag may sit in a
// comment, a quoted attribute or a <script>, and redacting the rest of a
// one-line page is the safe side.
//
// The names are those the regexp
// (?i)(?:proxy-)?authorization|(?:set-)?cookie|(?:x-)?api[-_]?key|x[-_]?auth[-_]?token
// finds with FindAllStringIndex (the tests hold headerNames to it; the
// names cannot overlap), found by hand: every one has a 'z' or a 'k', so
// one pass over s finds them all, where the regexp ran at a few MB/s.
func headerNames(s string) [][2]int {
	var out [][2]int
	for j := 0; j < len(s); j++ {
		if c := s[j] | 0x20; c != 'z' && c != 'k' {
			continue
		}
		if start, end := headerNameAt(s, j); end > 0 {
			out = append(out, [2]int{start, end})
			j = end - 1
		}
	}
	return out
}

// headerNameAt returns the secret header name around its 'z' or 'k' at
// s[j], with its optional prefix; end is 0 when there is none.
func headerNameAt(s string, j int) (start, end int) {
	if s[j]|0x20 == 'z' {
		if a := j - 7; hasFoldAt(s, a, "authorization") {
			if hasFoldAt(s, a-6, "proxy-") {
				a -= 6
			}
			return a, j + 6
		}
		return 0, 0
	}
	switch a := j - 3; {
	case hasFoldAt(s, a, "cookie"):
		if hasFoldAt(s, a-4, "set-") {
			a -= 4
		}
		return a, j + 3
	case hasFoldAt(s, a, "apikey"):
		if hasFoldAt(s, a-2, "x-") {
			a -= 2
		}
		return a, j + 3
	case hasFoldAt(s, a-1, "api-key") || hasFoldAt(s, a-1, "api_key"):
		if hasFoldAt(s, a-3, "x-") {
			return a - 3, j + 3
		}
		return a - 1, j + 3
	case hasFoldAt(s, j-2, "token"):
		a := j - 2
		if a > 0 && (s[a-1] == '-' || s[a-1] == '_') {
			a--
		}
		if !hasFoldAt(s, a-4, "auth") {
			return 0, 0
		}
		a -= 4
		if a > 0 && (s[a-1] == '-' || s[a-1] == '_') {
			a--
		}
		if hasFoldAt(s, a-1, "x") {
			return a - 1, j + 3
		}
	}
	return 0, 0
}

// redactedShape is Redacted in the delimiters of val; a value that is
// redacted already, and nothing more, keeps its form, so that redaction
// is idempotent ("Authorization: [REDACTED]" must not become
// "[[REDACTED]]"). One that only starts so is redacted as any other.
func redactedShape(val string) string {
	if n := redactedFormAt(val, 0); n > 0 && n == len(val) {
		return val
	}
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
// replacement when it is a string, an array (of header values), an object
// or a number; ok is signalled by end > i.
func redactedValue(b []byte, i int) (int, []byte) {
	if i >= len(b) {
		return i, nil
	}
	switch c := b[i]; {
	case c == '"':
		if end := stringEnd(b, i); end > 0 {
			return end, []byte(`"` + Redacted + `"`)
		}
	case c == '-' || '0' <= c && c <= '9':
		// A number: a key or token written as one.
		j := i + 1
		for j < len(b) && strings.IndexByte("0123456789.eE+-", b[j]) >= 0 {
			j++
		}
		return j, []byte(`"` + Redacted + `"`)
	case c == '[' || c == '{':
		// An array (of header values), or an object (a cookie jar by
		// name, a value with its parameters): redacted whole.
		rep := []byte(`["` + Redacted + `"]`)
		if c == '{' {
			rep = []byte(`"` + Redacted + `"`)
		}
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
					return j + 1, rep
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

// isSecretHeader reports whether name is a secret header's, in any ASCII
// case and with any '-' and '_' between its words, or none.
func isSecretHeader(name string) bool {
	if len(name) > 32 {
		return false // longer than any spelling, separators included
	}
	var buf [32]byte
	k := buf[:0]
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '-' || c == '_':
		case 'A' <= c && c <= 'Z':
			k = append(k, c+'a'-'A')
		default:
			k = append(k, c)
		}
	}
	return secretHeaderKeys[string(k)]
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
}{{"api-key", 4}, {"api_key", 4}, {"apikey", 3}, {"auth-token", 7}, {"auth_token", 7}, {"authtoken", 6}}

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
func hasFoldAt[T string | []byte](b T, i int, word string) bool {
	if i < 0 || len(b)-i < len(word) {
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

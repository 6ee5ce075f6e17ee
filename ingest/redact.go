package ingest

import (
	"bytes"
	"encoding/json"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/projectops/projectops-go/internal/wire"
)

// The built-in redaction rules, applied to every result's JSON encoding
// before it is spooled or sent. Token character classes exclude '"' and
// '\', so a match never crosses a JSON string boundary or escape. An sk_
// token: see skTokenAt. "bearer" starts a word ('_' before it included),
// or follows a JSON escape (a line that starts with it is "\nBearer …" in
// JSON, as white space after it may be "\t", escaped once more when a
// test prints JSON: "\\t"); what precedes it is kept.
// White space after it then minBearer token characters make a bearer
// token; '_' after it (go test writes a subtest named "token Bearer eyJ…"
// as "TestX/token_Bearer_eyJ…") a token that looks like one:
// minBearerUnderscore or more characters holding a mark (isBearerMark),
// or minSKWeakLongToken or more (bearerUnderscore), since
// "TestAuth/bearer_token_is_missing" is an ordinary name.
var (
	reBearer = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9]|\\[ntrbf]|\\u[0-9A-Fa-f]{4})(bearer)((?:\s|\\+[ntr]|\\+u00(?:20|09|0[aAdD]))+)[A-Za-z0-9._~+/=\-]{8,}`)
	// The token's first character is no '_', so the separator is every '_'.
	reBearerUnderscore = regexp.MustCompile(`(?i)(^|[^A-Za-z0-9]|\\[ntrbf]|\\u[0-9A-Fa-f]{4})bearer_+([A-Za-z0-9.~+/=\-][A-Za-z0-9._~+/=\-]{15,})`)
	// URL credentials may hold JSON's \uXXXX escapes (encoding/json writes
	// '&', '<' and '>' so, and invalid UTF-8 as \ufffd) and its \" and \\
	// (a '"' or '\' in a password), not other escapes: \/ is a '/', which
	// ends them, and \n or \t white space. Its "://" may be written with
	// JSON's \/ (some encoders escape every '/'), at any depth of quoting
	// (":\\\/" in JSON quoted in JSON).
	reURLCreds = regexp.MustCompile(`([a-zA-Z][a-zA-Z0-9+.\-]*:(?:\\*/){2})(?:[^/\s"\\@]|\\u[0-9A-Fa-f]{4}|\\["\\])+@`)
	// A tunnel URL's ?k= secret: see redactTunnelSecrets.
)

// Redacted replaces every secret the reporter removes.
const Redacted = "[REDACTED]"

// redactor removes secrets from encoded results. key replaces the client's
// API key, which starts with "sk_" (NewClient refuses another), in any
// spelling in a JSON document, which stays JSON, or in text (nil when
// there is no client). values takes out the run's own secrets (see
// RunParams.secrets) and a TBRecorder's APIKey in any spelling
// (wire.AnySpelling, as the transport takes out a request's; a key too
// short for it as wire.KeyValues says), wherever they occur in a string:
// a result's error text or output may quote a replay token, JSON-escaped
// or query-escaped in a logged URL. hook is a Reporter's Redact, run
// before the rules only on text redacted ahead of a cut (cutRedact): the
// encoder runs it on whole results itself.
//
// key cleans the raw JSON (wire.Scrubber.ScrubRaw), which stays JSON; no
// caller cleans the decoded text after it, so a match ScrubRaw leaves for
// it (a key holding '\' or '"' that a document spells mid-escape) is
// left. values cleans each string's decoded text too (cleanString).
type redactor struct {
	key    func(string) string
	values *wire.Scrubber
	hook   func(string) string
}

// clientRedactor is the redactor of a client's key, which redact takes
// out: the client's key starts with "sk_" (NewClient refuses another).
func clientRedactor(redact func(string) string) redactor {
	return redactor{key: redact}
}

// minValueRedacted is the shortest run secret replaced by value: a shorter
// one replaced everywhere would mangle results (wire.AnySpelling drops it).
const minValueRedacted = 8

// withValues is rd also replacing each of values, in any spelling.
func (rd redactor) withValues(values ...string) redactor {
	vs := make([]string, 0, len(values))
	for _, v := range values {
		if len(v) >= minValueRedacted {
			vs = append(vs, v)
		}
	}
	rd.values = rd.values.With(wire.ScrubValues{Marker: Redacted, Rule: wire.AnySpelling, Raw: true, Values: vs})
	return rd
}

// mayHoldKey reports whether b may hold the client's key in a spelling:
// one with an escape holds '%' or '\', any other "sk_".
func (rd redactor) mayHoldKey(b []byte) bool {
	if bytes.IndexByte(b, '%') >= 0 || bytes.IndexByte(b, '\\') >= 0 {
		return true
	}
	return containsAt(b, "sk_", 2)
}

// apply returns b with secrets replaced; b is returned unchanged (no copy)
// when nothing looks like a secret, which is the common case.
func (rd redactor) apply(b []byte) []byte { return rd.applyMode(b, false) }

// applyMode is apply; html reads every string of b as HTML (see
// redactHeaders).
func (rd redactor) applyMode(b []byte, html bool) []byte {
	b = rd.redactEscapedTokens(b)
	if rd.values != nil {
		b = replaceInStrings(b, rd.values)
	}
	if rd.key != nil && rd.mayHoldKey(b) {
		s := string(b)
		if r := rd.key(s); r != s {
			b = []byte(r)
		}
	}
	if containsAt(b, "sk_", 2) {
		b = redactSKTokens(b)
	}
	b = redactHeaders(b, html)
	if containsFoldAt(b, "bearer", 0) {
		b = reBearer.ReplaceAll(b, []byte("${1}${2}${3}"+Redacted))
		b = bearerUnderscore(b)
	}
	b = redactTunnelSecrets(b)
	if bytes.IndexByte(b, '@') >= 0 && (bytes.Contains(b, []byte(":/")) || bytes.Contains(b, []byte(`:\`))) { // '@' is the rare one
		b = reURLCreds.ReplaceAll(b, []byte("${1}"+Redacted+"@"))
	}
	return b
}

// minBearer and minBearerUnderscore are the fewest characters of a bearer
// token after white space and after '_' (see reBearer).
const (
	minBearer           = 8
	minBearerUnderscore = 16
)

// bearerUnderscore replaces in b the bearer tokens reBearerUnderscore
// finds that look like tokens, not snake_case words: holding a character
// no such word holds (isBearerMark), or minSKWeakLongToken long, as the
// sk_ rule after '_' (a random token without a digit is no rarity). A match passed over leaves no token behind:
// one that starts inside it, after "bearer_", has a suffix of its token,
// and one after white space is reBearer's, which ran first.
func bearerUnderscore(b []byte) []byte {
	var out []byte
	last := 0
	for _, m := range reBearerUnderscore.FindAllSubmatchIndex(b, -1) {
		tok := b[m[4]:m[5]]
		if len(tok) < minSKWeakLongToken && !bytes.ContainsFunc(tok, func(r rune) bool { return r < 0x80 && isBearerMark(byte(r)) }) {
			continue
		}
		out = append(append(out, b[last:m[4]]...), Redacted...)
		last = m[5]
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// isBearerMark reports whether token character c is one a snake_case word
// does not hold: isSKMark's, or one of the token's own punctuation.
func isBearerMark(c byte) bool {
	return isSKMark(c) || c == '.' || c == '~' || c == '+' || c == '/' || c == '='
}

// minTunnelSecret is the shortest ?k= value redactTunnelSecrets replaces:
// a shorter one is no secret the service issues, and replacing it would
// mangle text that only looks like a query.
const minTunnelSecret = 8

// redactTunnelSecrets replaces, in b, the value of a tunnel URL's k
// parameter, in every spelling the SDK's errors redact it in (the name
// percent-encoded, as the relay reads it; the separator escaped for JSON,
// HTML, XML or inside another URL, once or twice; ';' in a query only,
// not in code): wire.SecretParamAt is the one rule. The value runs to '&', '#', '%', '"', '\' or white space (a
// quote or an escape ends it inside a JSON string) and is replaced when
// it is at least minTunnelSecret bytes long. b is returned as is when it
// names no k parameter, which is the common case.
func redactTunnelSecrets(b []byte) []byte {
	if !hasSecretParamName(b) {
		return b
	}
	var out []byte
	last := 0
	for i := 0; i < len(b); i++ {
		if !wire.SecretParamStart(b[i]) {
			continue
		}
		start, ok := wire.SecretParamAt(b, i)
		if !ok {
			continue
		}
		end := start
		for end < len(b) && !endsTunnelSecret(b[end]) {
			end++
		}
		if end-start < minTunnelSecret {
			continue
		}
		out = append(append(out, b[last:start]...), Redacted...)
		last = end
		i = end - 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

func endsTunnelSecret(c byte) bool {
	switch c {
	case '&', '#', '%', '"', '\\', ' ', '\t', '\n', '\r', '\f':
		return true
	}
	return false
}

// hasSecretParamName reports whether b may hold a k parameter: k or K (or
// %6B, %4B, %256B, %254B) before '=', or %3D or %253D: the gate that
// keeps other documents to a search for '='.
func hasSecretParamName(b []byte) bool {
	for off := 0; off < len(b); {
		j := bytes.IndexByte(b[off:], '=')
		if j < 0 {
			break
		}
		j += off
		if j > 0 && (b[j-1] == 'k' || b[j-1] == 'K') || j >= 3 && (b[j-1] == 'b' || b[j-1] == 'B') && (b[j-3] == '%' || j >= 5 && b[j-5] == '%') {
			return true
		}
		off = j + 1
	}
	return containsFoldAt(b, "%3d", 1) || containsFoldAt(b, "%253d", 2)
}

// replaceInStrings replaces sc's values in the strings of the JSON
// document b (see cleanString), never in a number, outside strings or in
// a name the SDK writes itself (ownName): a secret of digits matching a
// number would break the document (and ScrubRaw would then keep it
// whole), and a short key equal to "passed" would rename that field. One
// scan of the document finds the matches; only the strings they touch are
// cleaned. b is returned as is when it holds no match at all, which is
// the common case.
func replaceInStrings(b []byte, sc *wire.Scrubber) []byte {
	doc := string(b) // the strings below are slices of it, not copies
	var buf [8][2]int
	spans := sc.Spans(doc, buf[:0])
	if len(spans) == 0 {
		return b
	}
	var out []byte
	last, start, k := 0, -1, 0 // start: the open string's quote, -1 outside one
	for i := 0; i < len(b) && k < len(spans); i++ {
		switch c := b[i]; {
		case start < 0:
			if c == '"' {
				start = i
			}
		case c == '\\':
			i++ // the escaped byte; \uXXXX's digits are no quote
		case c == '"':
			for k < len(spans) && spans[k][1] <= start {
				k++ // a match in a number or a name passed over
			}
			if k < len(spans) && spans[k][0] <= i && !ownName(doc, start, i) {
				str := doc[start : i+1]
				if r := cleanString(str, sc); r != str {
					out = append(append(out, b[last:start]...), r...)
					last = i + 1
				}
			}
			start = -1
		}
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// ownName reports whether doc[start:end+1], a JSON string, is a member
// name the SDK writes itself (a field of a result or of the spool's run
// record): a user's map key (metadata, arguments) is cleaned as any
// string is.
func ownName(doc string, start, end int) bool {
	j := end + 1
	for j < len(doc) && (doc[j] == ' ' || doc[j] == '\t' || doc[j] == '\n' || doc[j] == '\r') {
		j++
	}
	return j < len(doc) && doc[j] == ':' && ownNames()[doc[start+1:end]]
}

// ownNames is the JSON member names of the documents the SDK encodes
// and redacts: results and the spool's records.
var ownNames = sync.OnceValue(func() map[string]bool {
	names := map[string]bool{}
	seen := map[reflect.Type]bool{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct || seen[t] {
			return
		}
		seen[t] = true
		for f := range t.Fields() {
			if !f.IsExported() {
				continue
			}
			name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
			switch {
			case name == "-":
				continue
			case f.Anonymous && name == "":
				walk(f.Type)
				continue
			case name == "":
				name = f.Name
			}
			names[name] = true
			walk(f.Type)
		}
	}
	walk(reflect.TypeFor[Result]())
	walk(reflect.TypeFor[spoolRecord]())
	return names
})

// cleanString is str, one JSON string with its quotes, with sc's values
// replaced: as a raw JSON body is (wire.Scrubber.ScrubRaw: no escape
// split, no quote taken in, the rest kept as written), then, when escapes
// are left, in the decoded text, for a match ScrubRaw leaves to it (one
// that ends inside an escape, as "00000000" may after a \u0000): only the
// escapes and bytes such a match was decoded from are replaced, the rest
// of the string kept as written (re-encoding it would write \u003c as '<'
// and a lone \ud800 as U+FFFD).
func cleanString(str string, sc *wire.Scrubber) string {
	r := sc.ScrubRaw(str)
	if strings.IndexByte(r, '\\') < 0 {
		return r
	}
	dec, units, ok := decodeJSONString(r)
	if !ok {
		return r
	}
	spans := sc.Spans(dec, nil)
	if len(spans) == 0 {
		return r
	}
	var b strings.Builder
	b.Grow(len(r))
	last := 0 // r[:last] is in b
	for _, sp := range spans {
		from, to := max(units[sp[0]][0], last), units[sp[1]-1][1]
		b.WriteString(r[last:from])
		b.WriteString(Redacted)
		last = to
	}
	b.WriteString(r[last:])
	return b.String()
}

// decodeJSONString is the text of r, a JSON string with its quotes, as
// encoding/json decodes it, and for each byte of it the stretch of r it
// was decoded from (a whole escape, a surrogate pair's two; a character's
// every byte); ok is false when r is no JSON string.
func decodeJSONString(r string) (dec string, units [][2]int, ok bool) {
	if len(r) < 2 || r[0] != '"' || r[len(r)-1] != '"' {
		return "", nil, false
	}
	var b []byte
	units = make([][2]int, 0, len(r))
	emit := func(c rune, from, to int) {
		n := len(b)
		b = utf8.AppendRune(b, c)
		for range len(b) - n {
			units = append(units, [2]int{from, to})
		}
	}
	for i := 1; i < len(r)-1; {
		c := r[i]
		if c != '\\' {
			ch, n := utf8.DecodeRuneInString(r[i : len(r)-1])
			emit(ch, i, i+n) // invalid UTF-8 as U+FFFD, as encoding/json reads it
			i += n
			continue
		}
		if i+1 >= len(r)-1 {
			return "", nil, false
		}
		switch e := r[i+1]; e {
		case '"', '\\', '/':
			emit(rune(e), i, i+2)
		case 'b', 'f', 'n', 'r', 't':
			emit(rune("\b\f\n\r\t"[strings.IndexByte("bfnrt", e)]), i, i+2)
		case 'u':
			u, ok := hex4(r, i+2, len(r)-1)
			if !ok {
				return "", nil, false
			}
			if utf16.IsSurrogate(u) {
				if lo, ok := hex4(r, i+8, len(r)-1); ok && r[i+6] == '\\' && r[i+7] == 'u' {
					if pair := utf16.DecodeRune(u, lo); pair != utf8.RuneError {
						emit(pair, i, i+12)
						i += 12
						continue
					}
				}
				u = utf8.RuneError
			}
			emit(u, i, i+6)
			i += 6
			continue
		default:
			return "", nil, false
		}
		i += 2
	}
	return string(b), units, true
}

// hex4 is the rune of the 4 hex digits at r[i:], which must end by end.
func hex4(r string, i, end int) (rune, bool) {
	if i+4 > end {
		return 0, false
	}
	var v rune
	for _, c := range []byte(r[i : i+4]) {
		switch {
		case '0' <= c && c <= '9':
			v = v<<4 | rune(c-'0')
		case 'a' <= c|0x20 && c|0x20 <= 'f':
			v = v<<4 | rune(c|0x20-'a'+10)
		default:
			return 0, false
		}
	}
	return v, true
}

// text redacts plain text as a JSON string holding it would be: the rules
// read JSON, header lines inside strings included.
func (rd redactor) text(s string) []byte { return rd.textMode(s, false) }

// html redacts widget HTML as a result's widgetHtml field is read (a bare
// header value runs to the end of its source line, as in text): what a
// reporter uploads or spools beside a result goes through the rules the
// result does.
func (rd redactor) html(s string) []byte { return rd.textMode(s, true) }

func (rd redactor) textMode(s string, html bool) []byte {
	s = validUTF8(s)
	var out string // encodeString keeps "<pre>Cookie:" as the rules read it
	if json.Unmarshal(rd.applyMode(encodeString(s), html), &out) != nil {
		return []byte(Redacted) // cannot happen: replacements keep the string whole
	}
	return []byte(out)
}

// validUTF8 is s with each byte of invalid UTF-8 replaced by U+FFFD, as
// encoding/json decodes it: the rules then read what they read in text
// redacted already (U+FFFD as itself, not the "\ufffd" escape, whose last
// byte is a letter), so redacting that text again changes nothing.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// containsAt is bytes.Contains(b, word) with candidates found by
// bytes.IndexByte on word[pivot], a byte picked to be rare in test output:
// "sk_" would otherwise stop at every 's'.
func containsAt(b []byte, word string, pivot int) bool {
	for off := 0; off < len(b); {
		j := bytes.IndexByte(b[off:], word[pivot])
		if j < 0 {
			return false
		}
		j += off
		if i := j - pivot; i >= 0 && i+len(word) <= len(b) && string(b[i:i+len(word)]) == word {
			return true
		}
		off = j + 1
	}
	return false
}

// credFields redacts, in plain text (the service's own words about a
// request, not results, whose JSON the rule could mistake and whose size
// would make it slow), the values of OAuth credentials named by their
// field (see wire.CredFields).
func credFields(s string) string {
	if !containsFoldAt([]byte(s), "token", 2) && !containsFoldAt([]byte(s), "secret", 2) && !containsFoldAt([]byte(s), "verifier", 0) {
		return s
	}
	return wire.CredFields(s, Redacted)
}

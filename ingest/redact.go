package ingest

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"
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
// API key in any spelling in a JSON document, which stays JSON, or in text
// (nil when there is no client); values are the run's own secrets
// (see runSecrets) as JSON writes them inside a string, replaced wherever
// they occur: a result's error text or output may quote a replay token.
// hook is a Reporter's Redact, run before the rules only on text redacted
// ahead of a cut (cutRedact): the encoder runs it on whole results itself.
type redactor struct {
	key    func(string) string
	values [][]byte
	hook   func(string) string
}

// minValueRedacted is the shortest run secret replaced by value: a shorter
// one replaced everywhere would mangle results.
const minValueRedacted = 8

// withValues is rd also replacing each of values, as JSON escapes it.
func (rd redactor) withValues(values ...string) redactor {
	for _, v := range values {
		if len(v) < minValueRedacted {
			continue
		}
		e := encodeString(v)
		e = e[1 : len(e)-1]
		forms := [][]byte{e}
		// As other encoders write it in a Trace, kept as its caller
		// encoded it: encoding/json's default escapes <, > and &
		// (\u003c), some escape every / (\/).
		if h, err := json.Marshal(v); err == nil && !bytes.Equal(h[1:len(h)-1], e) {
			forms = append(forms, h[1:len(h)-1])
		}
		if bytes.IndexByte(e, '/') >= 0 {
			forms = append(forms, bytes.ReplaceAll(e, []byte("/"), []byte(`\/`)))
		}
		for _, f := range forms {
			rd.values = append(rd.values, f)
			// And as JSON quoted in text writes it ("Zq\"9" in a message
			// that quotes the request, escaped again when the text is read
			// as a JSON string: see text).
			if ff := encodeString(string(f)); len(ff) != len(f)+2 {
				rd.values = append(rd.values, ff[1:len(ff)-1])
			}
		}
	}
	// Longest first: a value that begins another would leave the other's
	// tail behind.
	slices.SortFunc(rd.values, func(a, b []byte) int { return len(b) - len(a) })
	return rd
}

// apply returns b with secrets replaced; b is returned unchanged (no copy)
// when nothing looks like a secret, which is the common case.
func (rd redactor) apply(b []byte) []byte { return rd.applyMode(b, false) }

// applyMode is apply; html reads every string of b as HTML (see
// redactHeaders).
func (rd redactor) applyMode(b []byte, html bool) []byte {
	b = rd.redactEscapedTokens(b)
	for _, v := range rd.values {
		if bytes.Contains(b, v) {
			b = replaceInStrings(b, v)
		}
	}
	// Keys always start with sk_: a spelling of one without it has an
	// escape ('%' or '\'), which gates the key check (the key is found in
	// any spelling).
	if rd.key != nil && (containsAt(b, "sk_", 2) || bytes.IndexByte(b, '%') >= 0 || bytes.IndexByte(b, '\\') >= 0) {
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

// replaceInStrings replaces v where it stands for text in a string of the
// JSON document b: starting at a character, not inside an escape ("\n"
// followed by the rest of a token that starts with n is not the token),
// and never in a number or a name outside strings. Replaced as bytes
// anywhere, a value could break the document or the text around it.
func replaceInStrings(b, v []byte) []byte {
	var out []byte
	last, inString := 0, false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case !inString:
			inString = c == '"'
		case c == '"':
			inString = false
		case bytes.HasPrefix(b[i:], v):
			out = append(append(out, b[last:i]...), Redacted...)
			i += len(v) - 1 // v is whole characters: the next one follows
			last = i + 1
		case c == '\\':
			i++ // the escaped byte
			if i < len(b) && b[i] == 'u' {
				i += 4
			}
		}
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
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

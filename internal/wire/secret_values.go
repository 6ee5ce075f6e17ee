package wire

import (
	"encoding/json"
	"mime"
	"net/url"
	"strings"
)

// CredentialHeader reports whether a header named name carries a
// credential: one of its words (split at '-' and '_', in any case) names
// one (authorization, auth, token, key, secret, password, cookie,
// signature, jwt, session, ...), or it is written as one word that does
// (apikey, accesstoken). Only such headers' values are secrets by value;
// replaced wherever it occurs, "application/json" or "production" would
// mangle every text that mentions it.
func CredentialHeader(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case "idempotency-key", "x-idempotency-key", "x-mcpjam-idempotency-key", "sec-websocket-key":
		// Not credentials: the WebSocket key is random per request, and
		// the idempotency key names a write for the service to
		// deduplicate (random per call, or the caller's own, often
		// deterministic, from WithIdempotencyKey). The service reads
		// idempotency-key and x-mcpjam-idempotency-key; x-idempotency-key
		// is net/http's other spelling, whose presence makes it re-send
		// a request (option/header.go refuses all three as headers). The
		// spellings are one value: kept or dropped together, never one
		// of them scrubbed or dropped on a redirect while another
		// carries it on.
		return false
	}
	for _, w := range strings.FieldsFunc(n, func(r rune) bool { return r == '-' || r == '_' }) {
		if credentialWords[w] {
			return true
		}
	}
	for _, w := range [...]string{"apikey", "accesskey", "authkey", "secretkey", "authtoken", "accesstoken", "apitoken",
		"sessiontoken", "usertoken", "csrftoken", "clientsecret", "sessionid"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// credentialWords are the words that make a header name a credential's.
var credentialWords = map[string]bool{
	"authorization": true, "authentication": true, "auth": true, "token": true, "key": true, "secret": true,
	"password": true, "passwd": true, "pass": true, "passphrase": true, "credential": true,
	"credentials": true, "cookie": true, "cookie2": true, "signature": true, "jwt": true,
	"assertion": true, "session": true, "csrf": true, "xsrf": true,
}

// HeaderSecrets returns the values of the credential headers (see
// CredentialHeader), and the key-like values of any other (KeyLike: many
// services take a key under a name with no credential word, as
// X-Honeycomb-Team), in every "headers" or "headersOverride" object at any
// depth of v, a host config as JSON decodes it or as Go builds it: each
// value whole, and its last word too ("Bearer abc" gives "abc", which a
// server may quote alone).
func HeaderSecrets(v any) []string {
	b, err := json.Marshal(v) // any shape a Go caller built, as the wire has it
	if err != nil {
		return nil
	}
	var m any
	if json.Unmarshal(b, &m) != nil {
		return nil
	}
	var out []string
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				if h, ok := e.(map[string]any); ok && (k == "headers" || k == "headersOverride") {
					for name, val := range h {
						if s, ok := val.(string); ok {
							v := strings.TrimSpace(s)
							word := v[strings.LastIndexAny(v, " \t")+1:]
							switch {
							case CredentialHeader(name):
								out = append(out, HeaderValueSecrets(name, s)...)
							case KeyLike(word):
								// "Token abc…" under a plain name: the
								// whole value and its key, each once.
								out = append(out, v)
								if word != v {
									out = append(out, word)
								}
							}
						}
					}
					continue
				}
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(m)
	return out
}

// HeaderValueSecrets is what a by-value scrub takes for a header's value:
// the value whole and, for a credential header with a scheme before its
// credential ("Bearer abc", "Basic abc"), the credential alone.
func HeaderValueSecrets(name, value string) []string {
	v := strings.TrimSpace(value)
	if i := strings.LastIndexAny(v, " \t"); i >= 0 && CredentialHeader(name) {
		return []string{v, v[i+1:]}
	}
	return []string{v}
}

// URLSecrets returns the secrets a URL carries: its password and the value
// of every k query parameter, in any case (a tunnel's), as written and
// decoded. A server that quotes one alone would otherwise show it.
func URLSecrets(raw string) []string {
	var out []string
	query := raw
	if u, err := url.Parse(raw); err == nil {
		if p, ok := u.User.Password(); ok {
			out = append(out, p)
			if w := rawPassword(raw); w != "" && w != p {
				out = append(out, w) // as written: p%40ss
			}
		}
		query = u.RawQuery
	} else if _, q, ok := strings.Cut(raw, "?"); ok {
		query = q // unparsable elsewhere (a %zz in its path): its query still reads
	} else {
		return nil
	}
	if i := strings.IndexByte(query, '#'); i >= 0 {
		query = query[:i]
	}
	for _, pair := range strings.FieldsFunc(query, func(r rune) bool { return r == '&' || r == ';' }) {
		name, val, _ := strings.Cut(pair, "=")
		if n, err := url.QueryUnescape(name); err == nil && strings.EqualFold(n, "k") && val != "" {
			out = append(out, val)
			if d, err := url.QueryUnescape(val); err == nil && d != val {
				out = append(out, d)
			}
		}
	}
	return out
}

// rawPassword is the password of raw's userinfo as written, or "".
func rawPassword(raw string) string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return ""
	}
	if i := strings.IndexAny(rest, "/?#"); i >= 0 {
		rest = rest[:i]
	}
	at := strings.LastIndexByte(rest, '@')
	if at < 0 {
		return ""
	}
	_, pw, ok := strings.Cut(rest[:at], ":")
	if !ok {
		return ""
	}
	return pw
}

// KeyLike reports whether a header value looks like a key rather than a
// setting: 16 bytes or more of one word (no space) holding both letters and
// digits, and not a media type ("application/vnd.github.v3+json"), a
// product/version token ("AppleWebKit/537.36") or a date and time
// ("2024-10-01T00:00:00Z"). An API key or a token almost always is; so is a
// UUID, which some services use as a key. Scrubbing every header value
// would cut ordinary words out of error messages.
func KeyLike(v string) bool {
	if len(v) < 16 {
		return false
	}
	letters, digits := false, false
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c <= ' ' || c == 0x7f:
			return false
		case c >= '0' && c <= '9':
			digits = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters = true
		}
	}
	return letters && digits && !mediaType(v) && !productToken(v) && !dateTime(v)
}

// topLevelTypes are the IANA media types' top-level names.
var topLevelTypes = map[string]bool{"application": true, "audio": true, "font": true, "image": true,
	"message": true, "model": true, "multipart": true, "text": true, "video": true}

// mediaType reports whether v parses as a media type of a registered
// top-level type.
func mediaType(v string) bool {
	mt, _, err := mime.ParseMediaType(v)
	top, _, _ := strings.Cut(mt, "/")
	return err == nil && topLevelTypes[top]
}

// productToken reports whether v is name/version with a version of digits
// and dots, as User-Agent and Server write their products.
func productToken(v string) bool {
	name, version, ok := strings.Cut(v, "/")
	if !ok || name == "" || version == "" || version[0] < '0' || version[0] > '9' {
		return false
	}
	return strings.Trim(version, "0123456789.") == ""
}

// dateTime reports whether v holds only what a date and time are written
// with: digits, - : . + and the letters T and Z.
func dateTime(v string) bool {
	return strings.Trim(v, "0123456789-:.+TZ") == ""
}

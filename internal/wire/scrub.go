package wire

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// reCredField is an OAuth credential named by its field in a message the
// service wrote (a validator echoing the request: a replay config's
// accessToken, refreshToken and clientSecret, an id token, a PKCE
// verifier), however the pair is written: JSON, a JSON dump inside a
// string (escaped quotes), a JavaScript object, key=value, a hash's =>.
// Group 1 is what precedes the name in its word (see credPrefixOK).
var reCredField = regexp.MustCompile(`(?i)([a-z0-9_-]*?)((?:(?:access|refresh|id)[_-]?token|client[_-]?secret|code[_-]?verifier)\\?["']?\s*(?:=>|[:=])\s*\\?["']?)([^"'\\\s&,;{}\[\]]+)`)

// credPrefixOK reports whether name, preceded in its word by prefix, is a
// credential's field name: alone, after a '_' or '-' (github_client_secret)
// or at a camel-case joint (googleAccessToken); not "valid_token" or
// "invalid_token", whose "id_token" is part of another word.
func credPrefixOK(prefix, name string) bool {
	switch {
	case !strings.EqualFold(name[:2], "id"): // only "id_token" ends common words (valid, paid)
		return true
	case prefix == "":
		return true
	case strings.HasSuffix(prefix, "_"), strings.HasSuffix(prefix, "-"):
		return true
	}
	last := prefix[len(prefix)-1]
	return name[0] >= 'A' && name[0] <= 'Z' && (last >= 'a' && last <= 'z' || last >= '0' && last <= '9')
}

// CredFields replaces with redacted, in plain text, the values of the OAuth
// credentials reCredField names by their field. A quoted value is
// redacted to its closing quote, whatever it holds.
func CredFields(s, redacted string) string {
	var b strings.Builder
	last := 0
	for pos := 0; pos < len(s); {
		m := reCredField.FindStringSubmatchIndex(s[pos:])
		if m == nil {
			break
		}
		for i := range m {
			if m[i] >= 0 {
				m[i] += pos
			}
		}
		from, to := m[6], m[7]
		if !credPrefixOK(s[m[2]:m[3]], s[m[4]:m[5]]) {
			pos = m[4] + 1 // not a field here: look again after the name's first byte
			continue
		}
		if q := s[from-1]; q == '"' || q == '\'' {
			to = len(s)
			if from >= 2 && s[from-2] == '\\' { // an escaped quote closes it
				if j := strings.Index(s[from:], "\\"+string(q)); j >= 0 {
					to = from + j
				}
			} else {
				for j := from; j < len(s); j++ {
					if s[j] == '\\' {
						j++
					} else if s[j] == q {
						to = j
						break
					}
				}
			}
		}
		b.WriteString(s[last:from])
		b.WriteString(redacted)
		last = to
		pos = max(to, m[1])
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// minScrubbed is the shortest value SecretScrubber replaces wherever it
// occurs, as long as the shortest token ingest's rules match; a shorter
// value could well be part of an ordinary word or number.
const minScrubbed = 8

// minTokenScrubbed is the shortest value SecretScrubber replaces at all,
// and then only as a whole token (see wholeToken). Under 4 bytes a value
// (a flag such as "-y", "on", "1") is no secret worth the name and, even
// as a whole token, would take out ordinary words and numbers ("line 1").
const minTokenScrubbed = 4

// SecretScrubber returns what takes a request's own secrets out of the
// text of an error answer: a service or a proxy may quote the request
// body, whose secrets only the caller knows. (The transport matches them
// through a Scrubber with the call's other secrets: Request.Secrets.) It
// replaces each value in any spelling: as written, percent-encoded (a URL
// or form value; QueryEscape's '+' for a space too) and JSON-escaped (Go's
// escaping, another encoder's \/ or \u002f, either hex case), any mixture
// of them character by character (encodedWalk); then the credentials
// named by their field (CredFields) and any tunnel URL's ?k= secret. A
// value of minScrubbed bytes or more is replaced wherever it occurs; a
// shorter one (a PIN, a short key) only where it stands as a whole token
// (tokenAt), so that "7304" leaves "17304" alone; one under
// minTokenScrubbed bytes is not replaced by value (only an OAuth credential
// among them is still caught, by its field's name). A value of
// minScrubbed bytes or more is also taken out under two layers of
// encoding: a URL holding it, itself a query value (%252F), or a JSON
// dump inside a JSON string (\\/). The first layer may be any of Go's
// encoders (QueryEscape, PathEscape, encoding/json, JSON with \/) or
// JavaScript's (encodeURIComponent, encodeURI, URLSearchParams,
// JSON.stringify), which spell some characters otherwise (encodeURIComponent
// escapes '@', URLSearchParams '~'; JSON.stringify leaves '<' and '&'
// raw), or any mixture of them character by character, hex digits in
// either case (firstLayers); the second is any spelling of that. As a
// Scrubber does, it finds every value's matches, in every spelling, in
// the text as given and replaces their union: a value found inside
// another's escaped spelling hides none of it.
func SecretScrubber(values ...string) func(string) string {
	sc := NewScrubber(ScrubValues{Marker: "[REDACTED]", Rule: RequestSecret, Values: values})
	return func(s string) string { return RedactSecretParams(SecretFields(sc.Scrub(s))) }
}

// SecretFields is the OAuth credentials named by their field (CredFields)
// replaced, what SecretScrubber does after the values but for the tunnel
// URLs' ?k= secrets: for a request's Scrub, run by a transport that takes
// the values and those secrets out itself (RedactSecretParams, once).
func SecretFields(s string) string { return CredFields(s, "[REDACTED]") }

// encodedValue is a value for the encoded pass (replaceEncoded): its
// characters and, for one taken out under two layers, their first-layer
// spellings.
type encodedValue struct {
	v        string
	chars    []encodedChar
	first    [][]string
	reach    int // the furthest one character's spelling runs
	distinct int // characters that differ (encodedChar.id)
}

// encodedChar is one character of a value: its bytes and its rune, or -1
// for a byte that is no UTF-8, and id, the same for each occurrence of
// the character in the value (its spellings' ends at a position are found
// once for them all).
type encodedChar struct {
	ch string
	r  rune
	id int
}

// newEncodedValue is v for the encoded pass, under two layers if layered.
func newEncodedValue(v string, layered bool) encodedValue {
	e := encodedValue{v: v, reach: 12} // spellEnds's longest: 4 bytes as %XX, or a surrogate pair
	e.chars = make([]encodedChar, 0, utf8.RuneCountInString(v))
	// Ids by a table for ASCII, most secrets' every character; a map for
	// the rest, made only if there are any: a scrubber is made per request.
	var ascii [utf8.RuneSelf]int
	var others map[string]int
	for i := 0; i < len(v); {
		r, size := utf8.DecodeRuneInString(v[i:])
		if r == utf8.RuneError && size == 1 {
			r = -1
		}
		ch := v[i : i+size]
		var id int
		switch {
		case size == 1 && r >= 0:
			if ascii[r] == 0 {
				e.distinct++
				ascii[r] = e.distinct
			}
			id = ascii[r] - 1
		default:
			if others == nil {
				others = map[string]int{}
			}
			got, ok := others[ch]
			if !ok {
				got = e.distinct
				others[ch] = got
				e.distinct++
			}
			id = got
		}
		e.chars = append(e.chars, encodedChar{ch, r, id})
		i += size
	}
	if layered {
		e.first = firstLayers(v)
		for _, sp := range e.first {
			for _, f := range sp {
				e.reach = max(e.reach, 6*len(f)) // each byte as a \u00XX
			}
		}
	}
	return e
}

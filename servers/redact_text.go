package servers

import (
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
)

// redactText takes the secrets a URL quoted in free text may carry out of
// it, for printing and logging: the value of a tunnel's ?k= parameter and
// a userinfo password. A doctor report's details and error message quote
// the target URL as the service tried it.
func redactText(s string) string {
	return wire.RedactSecretParams(redactURLPasswords(s))
}

// redactURLPasswords replaces the password of every URL in s written with
// userinfo ("scheme://user:password@host") by REDACTED. The userinfo ends
// at the last '@' before a '/', white space, quote, '<', '>' or backslash,
// as url.Parse reads a password holding a raw '@'.
func redactURLPasswords(s string) string {
	if !strings.Contains(s, "://") || !strings.Contains(s, "@") {
		return s
	}
	var b strings.Builder
	last := 0
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			break
		}
		start := i + j + len("://")
		end := start
		for end < len(s) && !strings.ContainsRune("/\\\"'<>` \t\r\n", rune(s[end])) {
			end++
		}
		auth := s[start:end]
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			if c := strings.IndexByte(auth[:at], ':'); c >= 0 && c+1 < at && auth[c+1:at] != "REDACTED" {
				b.WriteString(s[last : start+c+1])
				b.WriteString("REDACTED")
				last = start + at
			}
		}
		i = end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactAny is v with every string in it, at any depth of maps and slices
// as encoding/json decodes them, passed through redactText: a copy, v is
// left as it is.
func redactAny(v any) any {
	switch x := v.(type) {
	case string:
		return redactText(x)
	case map[string]any:
		if x == nil {
			return x
		}
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = redactAny(e)
		}
		return out
	case []any:
		if x == nil {
			return x
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = redactAny(e)
		}
		return out
	}
	return v
}

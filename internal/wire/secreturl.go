package wire

import "net/url"

// RedactSecretQuery returns u with the value of its k query parameter (a
// tunnel URL's secret) and its userinfo password replaced by REDACTED, for
// printing and logging. The wire value itself is never changed: the service
// stores and returns the plaintext URL in a tunnel's server record. Text
// that does not parse as a URL is replaced entirely, and a query Go cannot
// parse (it may hold a secret for another reader) is replaced whole.
func RedactSecretQuery(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil {
		return "[unparsable URL redacted]"
	}
	changed := false
	if _, ok := p.User.Password(); ok {
		p.User, changed = url.UserPassword(p.User.Username(), "REDACTED"), true
	}
	if p.RawQuery != "" {
		q, err := url.ParseQuery(p.RawQuery)
		switch {
		case err != nil:
			p.RawQuery, changed = "REDACTED", true
		case q.Has("k"):
			q.Set("k", "REDACTED")
			p.RawQuery, changed = q.Encode(), true
		}
	}
	if !changed {
		return u
	}
	return p.String()
}

package wire

import "net/url"

// RedactSecretQuery returns u with the value of its k query parameter (a
// tunnel URL's secret) replaced by REDACTED, for printing and logging. The
// wire value itself is never changed: the service stores and returns the
// plaintext URL in a tunnel's server record. Text that does not parse as a
// URL is replaced entirely when it could hold a secret.
func RedactSecretQuery(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil {
		return "[unparsable URL redacted]"
	}
	q, err := url.ParseQuery(p.RawQuery)
	if err != nil {
		// A pair Go cannot read (a ';', a bad escape) may still be a
		// secret to another reader: none of the query is shown.
		p.RawQuery = "REDACTED"
		return p.String()
	}
	if !q.Has("k") {
		return u
	}
	q.Set("k", "REDACTED")
	p.RawQuery = q.Encode()
	return p.String()
}

package edge

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/internal/wire"
)

// Query is a request's raw query string, read as the service's routes
// read theirs (Hono's c.req.query(name)): parameters are separated by '&'
// only, a route reads only the parameters it names, and a bad percent
// escape ("%zz", a trailing "%", escapes that do not decode to UTF-8)
// stays in the value as raw text instead of failing the request or
// dropping the parameter. A parameter so read is then validated as its
// raw text would be (cursor=%zz is a cursor the double did not make).
type Query string

// QueryOf is r's query.
func QueryOf(r *http.Request) Query { return Query(r.URL.RawQuery) }

// Get is the value of the first parameter called name, decoded ("" when
// there is none, or it has no value). As the service looks it up, a
// parameter whose name is written as is wins over one whose escaped name
// decodes to it.
func (q Query) Get(name string) string {
	raw := string(q)
	for part := range strings.SplitSeq(raw, "&") {
		if n, v, _ := strings.Cut(part, "="); n == name {
			return decodeQueryText(v)
		}
	}
	if !strings.ContainsAny(raw, "%+") {
		return ""
	}
	for part := range strings.SplitSeq(raw, "&") {
		if n, v, _ := strings.Cut(part, "="); n != "" && decodeQueryText(n) == name {
			return decodeQueryText(v)
		}
	}
	return ""
}

// decodeQueryText decodes a query name or value: '+' is a space, and each
// run of %XX escapes is decoded when its bytes are UTF-8 and kept as
// written otherwise, as is a '%' that does not start an escape.
func decodeQueryText(s string) string {
	if !strings.ContainsAny(s, "%+") {
		return s
	}
	s = strings.ReplaceAll(s, "+", " ")
	if !strings.Contains(s, "%") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var run []byte
	for i := 0; i < len(s); {
		n := escapeRun(s[i:])
		if n == 0 {
			b.WriteByte(s[i])
			i++
			continue
		}
		run = run[:0]
		for j := i; j < i+n; j += 3 {
			run = append(run, byte(wire.PercentByte(s, j)))
		}
		if utf8.Valid(run) {
			b.Write(run)
		} else {
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}

// escapeRun is the length of the run of %XX escapes s starts with.
func escapeRun(s string) int {
	n := 0
	for wire.PercentByte(s, n) >= 0 {
		n += 3
	}
	return n
}

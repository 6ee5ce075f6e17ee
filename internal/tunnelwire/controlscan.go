package tunnelwire

import "net/http"

// scanControl reads a control message in the form this package writes: no
// whitespace, known member names each once, strings of printable ASCII
// without escapes (a byte string of them is its own bytes), integers. It
// reports false for anything else, which DecodeControl hands to json/v2.
// The scan records where each string is; once it succeeds, the header
// names are made canonical in place (p is a message buffer the caller is
// done with), and every string is a piece of one copy of p, all header
// values share one backing array.
func scanControl(p []byte) (Control, bool) {
	s := scanner{b: p}
	var (
		seen                 uint16
		t, slug, method, url span
		code, msg            span
		id, proto, status    int64
		limits               Limits
		pairs                [24][2]span
		hdr                  [][2]span
		hasBody              bool
	)
	if !s.eat('{') {
		return Control{}, false
	}
	for first := true; !s.eat('}'); first = false {
		if !first && !s.eat(',') {
			return Control{}, false
		}
		name, ok := s.str()
		if !ok || !s.eat(':') {
			return Control{}, false
		}
		var bit uint16
		switch string(p[name.from:name.to]) { // no allocation: a switch on a converted slice
		case "t":
			bit = 1 << 0
			t, ok = s.str()
		case "id":
			bit = 1 << 1
			id, ok = s.int(1<<32 - 1)
		case "proto":
			bit = 1 << 2
			proto, ok = s.int(1<<31 - 1)
		case "slug":
			bit = 1 << 3
			slug, ok = s.str()
		case "limits":
			bit = 1 << 4
			ok = s.limits(&limits)
		case "method":
			bit = 1 << 5
			method, ok = s.str()
		case "url":
			bit = 1 << 6
			url, ok = s.str()
		case "status":
			bit = 1 << 7
			status, ok = s.int(1<<31 - 1)
		case "headers":
			bit = bitHeaders
			hdr, ok = s.headers(pairs[:0])
		case "hasBody":
			bit = 1 << 9
			hasBody, ok = s.bool()
		case "code":
			bit = 1 << 10
			code, ok = s.str()
		case "msg":
			bit = bitMsg
			msg, ok = s.str()
		default:
			return Control{}, false
		}
		if !ok || seen&bit != 0 {
			return Control{}, false
		}
		seen |= bit
	}
	if s.i != len(p) {
		return Control{}, false
	}
	for _, kv := range hdr {
		canonicalInPlace(p[kv[0].from:kv[0].to])
	}
	// Strings are pieces of one copy of p, made only when a message has a
	// string that is not one of the protocol's names: an end or an abort
	// costs no allocation.
	var all string
	str := func(sp span) string {
		if sp.to == sp.from {
			return ""
		}
		if all == "" {
			all = string(p)
		}
		return all[sp.from:sp.to]
	}
	c := Control{T: known(p[t.from:t.to], types), ID: uint32(id), Proto: int(proto), Limits: limits,
		Status: int(status), HasBody: hasBody, Code: known(p[code.from:code.to], codes)}
	if c.T == "" {
		c.T = str(t)
	}
	if c.Code == "" {
		c.Code = str(code)
	}
	c.Slug, c.Method, c.URL = str(slug), str(method), str(url)
	if seen&bitMsg != 0 {
		c.Msg = str(msg)
	}
	if seen&bitHeaders != 0 {
		c.Header = headerOf(str(span{0, len(p)}), hdr)
	}
	return c, true
}

// The protocol's names, which a decoded message shares instead of copying.
var (
	types = []string{Hello, Req, ReqEnd, Res, ResEnd, Abort}
	codes = []string{AbortTimeout, AbortTooLarge, AbortClientGone, AbortUpstreamError, AbortOverloaded}
)

// known returns the name in names that b spells, or "".
func known(b []byte, names []string) string {
	for _, n := range names {
		if string(b) == n {
			return n
		}
	}
	return ""
}

// The seen bits of the members whose presence matters beyond their value.
const (
	bitHeaders = 1 << 8
	bitMsg     = 1 << 11
)

// span is where a string's bytes are in the message.
type span struct{ from, to int }

type scanner struct {
	b []byte
	i int
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (s *scanner) str() (span, bool) {
	if !s.eat('"') {
		return span{}, false
	}
	start := s.i
	for ; s.i < len(s.b); s.i++ {
		switch strClass[s.b[s.i]] {
		case strQuote:
			s.i++
			return span{start, s.i - 1}, true
		case strOther:
			return span{}, false
		}
	}
	return span{}, false
}

// Byte classes in a string the scan reads: one table lookup per byte.
const (
	strPlain = iota // printable ASCII but the two below
	strQuote        // the closing quote
	strOther        // an escape, a control byte or non-ASCII: json/v2's to read
)

var strClass = func() (t [256]uint8) {
	for c := range t {
		switch {
		case c == '"':
			t[c] = strQuote
		case c < 0x20 || c >= 0x7f || c == '\\':
			t[c] = strOther
		}
	}
	return t
}()

// int reads a non-negative integer of at most 15 digits, as JSON writes
// it, no larger than max.
func (s *scanner) int(max int64) (int64, bool) {
	start := s.i
	var n int64
	for s.i < len(s.b) && s.b[s.i] >= '0' && s.b[s.i] <= '9' && s.i-start < 15 {
		n = n*10 + int64(s.b[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 1 && s.b[start] == '0' || n > max {
		return 0, false
	}
	// More digits, a fraction or an exponent: not ours to read.
	if s.i < len(s.b) && (s.b[s.i] >= '0' && s.b[s.i] <= '9' || s.b[s.i] == '.' || s.b[s.i] == 'e' || s.b[s.i] == 'E') {
		return 0, false
	}
	return n, true
}

func (s *scanner) bool() (bool, bool) {
	switch rest := s.b[s.i:]; {
	case len(rest) >= 4 && string(rest[:4]) == "true":
		s.i += 4
		return true, true
	case len(rest) >= 5 && string(rest[:5]) == "false":
		s.i += 5
		return false, true
	}
	return false, false
}

// limits reads {"maxReqBody":n,"chunk":n,"maxInflight":n}, members in any
// order, each at most once.
func (s *scanner) limits(l *Limits) bool {
	if !s.eat('{') {
		return false
	}
	var seen uint8
	for first := true; !s.eat('}'); first = false {
		if !first && !s.eat(',') {
			return false
		}
		name, ok := s.str()
		if !ok || !s.eat(':') {
			return false
		}
		n, ok := s.int(1<<53 - 1)
		if !ok {
			return false
		}
		var bit uint8
		switch string(s.b[name.from:name.to]) {
		case "maxReqBody":
			bit, l.MaxReqBody = 1, n
		case "chunk":
			if n > 1<<31-1 {
				return false
			}
			bit, l.Chunk = 2, int(n)
		case "maxInflight":
			if n > 1<<31-1 {
				return false
			}
			bit, l.MaxInflight = 4, int(n)
		default:
			return false
		}
		if seen&bit != 0 {
			return false
		}
		seen |= bit
	}
	return true
}

// headers reads [["name","value"],...] into pairs.
func (s *scanner) headers(pairs [][2]span) ([][2]span, bool) {
	if !s.eat('[') {
		return nil, false
	}
	for first := true; !s.eat(']'); first = false {
		if !first && !s.eat(',') {
			return nil, false
		}
		if !s.eat('[') {
			return nil, false
		}
		k, ok := s.str()
		if !ok || !s.eat(',') {
			return nil, false
		}
		v, ok := s.str()
		if !ok || !s.eat(']') {
			return nil, false
		}
		pairs = append(pairs, [2]span{k, v})
	}
	return pairs, true
}

// headerOf builds the header of pairs whose names are canonical already;
// values of a name are joined in order. A name's values are contiguous in
// the one backing array when its pairs are: the common case takes a slice
// of it, a name that recurs later its own.
func headerOf(all string, pairs [][2]span) http.Header {
	h := make(http.Header, len(pairs))
	vals := make([]string, len(pairs))
	for i, kv := range pairs {
		vals[i] = all[kv[1].from:kv[1].to]
	}
	for i, kv := range pairs {
		k := all[kv[0].from:kv[0].to]
		prev, dup := h[k]
		switch {
		case !dup:
			h[k] = vals[i : i+1 : i+1]
		case len(prev) > 0 && &prev[len(prev)-1] == &vals[i-1]:
			h[k] = vals[i-len(prev) : i+1 : i+1]
		default:
			h[k] = append(prev, vals[i])
		}
	}
	return h
}

// canonicalInPlace rewrites a header name as http.CanonicalHeaderKey
// would return it: the first letter and any letter after a hyphen upper
// case, the rest lower; a name with a byte that is not a token's (a space,
// say) is left as it is, as CanonicalHeaderKey leaves it.
func canonicalInPlace(b []byte) {
	for _, c := range b {
		if !tokenByte(c) {
			return
		}
	}
	upper := true
	for i, c := range b {
		switch {
		case upper && 'a' <= c && c <= 'z':
			b[i] = c - 'a' + 'A'
		case !upper && 'A' <= c && c <= 'Z':
			b[i] = c - 'A' + 'a'
		}
		upper = c == '-'
	}
}

// tokenByte reports a byte allowed in a header field name (RFC 9110's
// tchar).
func tokenByte(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	switch c {
	case '!', '#', '$', '%', '&', '\'', '*', '+', '-', '.', '^', '_', '`', '|', '~':
		return true
	}
	return false
}

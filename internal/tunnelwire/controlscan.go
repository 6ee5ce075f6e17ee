package tunnelwire

import "net/http"

// scanControl reads a control message in the form this package writes: no
// whitespace, known member names each once, strings without escapes,
// integers. It reports false for anything else, which DecodeControl hands
// to json/v2. All strings share one copy of p and all header values one
// backing array.
func scanControl(p []byte) (*Control, bool) {
	s := scanner{s: string(p)}
	c := &Control{}
	if !s.eat('{') {
		return nil, false
	}
	var seen uint16
	for first := true; !s.eat('}'); first = false {
		if !first && !s.eat(',') {
			return nil, false
		}
		name, ok := s.str()
		if !ok || !s.eat(':') {
			return nil, false
		}
		var bit uint16
		switch name {
		case "t":
			bit = 1 << 0
			c.T, ok = s.str()
		case "id":
			bit = 1 << 1
			var n int64
			n, ok = s.int(1<<32 - 1)
			c.ID = uint32(n)
		case "proto":
			bit = 1 << 2
			var n int64
			n, ok = s.int(1<<31 - 1)
			c.Proto = int(n)
		case "slug":
			bit = 1 << 3
			c.Slug, ok = s.str()
		case "limits":
			bit = 1 << 4
			ok = s.limits(&c.Limits)
		case "method":
			bit = 1 << 5
			c.Method, ok = s.str()
		case "url":
			bit = 1 << 6
			c.URL, ok = s.str()
		case "status":
			bit = 1 << 7
			var n int64
			n, ok = s.int(1<<31 - 1)
			c.Status = int(n)
		case "headers":
			bit = 1 << 8
			c.Header, ok = s.headers()
		case "hasBody":
			bit = 1 << 9
			c.HasBody, ok = s.bool()
		case "code":
			bit = 1 << 10
			c.Code, ok = s.str()
		case "msg":
			bit = 1 << 11
			c.Msg, ok = s.str()
		default:
			return nil, false
		}
		if !ok || seen&bit != 0 {
			return nil, false
		}
		seen |= bit
	}
	return c, s.i == len(s.s)
}

type scanner struct {
	s string
	i int
}

func (s *scanner) eat(c byte) bool {
	if s.i < len(s.s) && s.s[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string of printable ASCII without escapes.
func (s *scanner) str() (string, bool) {
	if !s.eat('"') {
		return "", false
	}
	start := s.i
	for ; s.i < len(s.s); s.i++ {
		c := s.s[s.i]
		if c == '"' {
			s.i++
			return s.s[start : s.i-1], true
		}
		if c < 0x20 || c >= 0x7f || c == '\\' {
			return "", false
		}
	}
	return "", false
}

// int reads a non-negative integer of at most 15 digits, as JSON writes
// it, no larger than max.
func (s *scanner) int(max int64) (int64, bool) {
	start := s.i
	var n int64
	for s.i < len(s.s) && s.s[s.i] >= '0' && s.s[s.i] <= '9' && s.i-start < 15 {
		n = n*10 + int64(s.s[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 1 && s.s[start] == '0' || n > max {
		return 0, false
	}
	// More digits, a fraction or an exponent: not ours to read.
	if s.i < len(s.s) && (s.s[s.i] >= '0' && s.s[s.i] <= '9' || s.s[s.i] == '.' || s.s[s.i] == 'e' || s.s[s.i] == 'E') {
		return 0, false
	}
	return n, true
}

func (s *scanner) bool() (bool, bool) {
	switch {
	case len(s.s)-s.i >= 4 && s.s[s.i:s.i+4] == "true":
		s.i += 4
		return true, true
	case len(s.s)-s.i >= 5 && s.s[s.i:s.i+5] == "false":
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
		switch name {
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

// headers reads [["name","value"],...] into a header with canonical
// names; values of names that are one once canonical are joined in order.
func (s *scanner) headers() (http.Header, bool) {
	if !s.eat('[') {
		return nil, false
	}
	type pair struct{ k, v string }
	var stack [24]pair
	pairs := stack[:0]
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
		pairs = append(pairs, pair{k, v})
	}
	h := make(http.Header, len(pairs))
	vals := make([]string, len(pairs))
	for i, p := range pairs {
		vals[i] = p.v
	}
	// A name's values are contiguous in vals when its pairs are: the
	// common case takes a slice of vals, a name that recurs later its own.
	for i, p := range pairs {
		k := http.CanonicalHeaderKey(p.k) // no copy when it already is
		prev, dup := h[k]
		switch {
		case !dup:
			h[k] = vals[i : i+1 : i+1]
		case len(prev) > 0 && &prev[len(prev)-1] == &vals[i-1]:
			h[k] = vals[i-len(prev) : i+1 : i+1]
		default:
			h[k] = append(prev, p.v)
		}
	}
	return h, true
}

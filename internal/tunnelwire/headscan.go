package tunnelwire

import "net/http"

// scanHead reads a head in the form EncodeHead writes: no whitespace, the
// field names in lower case, each once, strings of plain bytes. It reports
// false for anything else, which DecodeHead hands to json/v2. All strings
// share one copy of p, and all header values one backing array: four
// allocations for the whole head.
func scanHead(p []byte) (*Head, bool) {
	s := headScanner{s: string(p)}
	h := &Head{}
	if !s.eat('{') {
		return nil, false
	}
	var seen [4]bool
	for first := true; !s.eat('}'); first = false {
		if !first && !s.eat(',') {
			return nil, false
		}
		name, ok := s.str()
		if !ok || !s.eat(':') {
			return nil, false
		}
		var f int
		switch name {
		case "method":
			h.Method, ok = s.str()
		case "uri":
			f = 1
			h.URI, ok = s.str()
		case "status":
			f = 2
			h.Status, ok = s.number()
		case "header":
			f = 3
			h.Header, ok = s.header()
		default:
			return nil, false
		}
		if !ok || seen[f] {
			return nil, false
		}
		seen[f] = true
	}
	return h, s.i == len(s.s)
}

type headScanner struct {
	s string
	i int
}

func (s *headScanner) eat(c byte) bool {
	if s.i < len(s.s) && s.s[s.i] == c {
		s.i++
		return true
	}
	return false
}

// str reads a string without escapes.
func (s *headScanner) str() (string, bool) {
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

// number reads a small non-negative integer as JSON writes it.
func (s *headScanner) number() (int, bool) {
	start, n := s.i, 0
	for s.i < len(s.s) && s.s[s.i] >= '0' && s.s[s.i] <= '9' && s.i-start < 9 {
		n = n*10 + int(s.s[s.i]-'0')
		s.i++
	}
	digits := s.i - start
	if digits == 0 || digits > 1 && s.s[start] == '0' {
		return 0, false
	}
	// A tenth digit, a fraction or an exponent: not ours to read.
	if s.i < len(s.s) && (s.s[s.i] >= '0' && s.s[s.i] <= '9' || s.s[s.i] == '.' || s.s[s.i] == 'e' || s.s[s.i] == 'E') {
		return 0, false
	}
	return n, true
}

// header reads {"Name":["v",...],...} and makes the names canonical; a
// null or a repeated name (also one differing only in case) is not ours
// to read.
func (s *headScanner) header() (http.Header, bool) {
	if !s.eat('{') {
		return nil, false
	}
	type entry struct {
		name     string
		from, to int
	}
	var stack [24]entry
	entries := stack[:0]
	vals := make([]string, 0, 8)
	for first := true; !s.eat('}'); first = false {
		if !first && !s.eat(',') {
			return nil, false
		}
		name, ok := s.str()
		if !ok || !s.eat(':') || !s.eat('[') {
			return nil, false
		}
		from := len(vals)
		for firstVal := true; !s.eat(']'); firstVal = false {
			if !firstVal && !s.eat(',') {
				return nil, false
			}
			v, ok := s.str()
			if !ok {
				return nil, false
			}
			vals = append(vals, v)
		}
		entries = append(entries, entry{name, from, len(vals)})
	}
	h := make(http.Header, len(entries))
	for _, e := range entries {
		name := http.CanonicalHeaderKey(e.name) // as DecodeHead returns them; no copy when it is
		if _, dup := h[name]; dup {
			return nil, false
		}
		if e.from == e.to {
			h[name] = []string{} // as json/v2 reads []
			continue
		}
		h[name] = vals[e.from:e.to:e.to]
	}
	return h, true
}

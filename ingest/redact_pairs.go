package ingest

import (
	"bytes"
	"encoding/json"
	"slices"
)

// redactPairs returns b with the "value" member of every object whose
// "name" member (either key in any case, as HAR and Go's default field
// names write them) names a secret header replaced, whatever the order of
// the members and whatever sits between them, and every "value" member
// when it repeats; and so for every object in a "cookies" array (a HAR's
// request and response cookies, Playwright's storageState), whatever its
// name. b is returned as is when
// there is none, or when it is not well-formed enough to tell.
func redactPairs(b []byte) []byte {
	type member int
	const (
		other member = iota
		name
		value
		cookies
	)
	type frame struct {
		obj, wantKey bool
		cur          member
		curStart     int      // where the current member's value starts
		secret       bool     // the name member names a secret header, or the object is a cookie
		cookieList   bool     // an array that is a "cookies" member's value
		values       [][2]int // the value members' values (a member may repeat)
	}
	var stack []frame
	var reps [][2]int
	endMember := func(f *frame, i int) {
		if f.cur == value && f.curStart >= 0 {
			e := i
			for e > f.curStart && (b[e-1] == ' ' || b[e-1] == '\t' || b[e-1] == '\n' || b[e-1] == '\r') {
				e--
			}
			if e > f.curStart {
				f.values = append(f.values, [2]int{f.curStart, e})
			}
		}
		f.cur, f.curStart = other, -1
	}
	for i := 0; i < len(b); i++ {
		var top *frame
		if len(stack) > 0 {
			top = &stack[len(stack)-1]
		}
		switch b[i] {
		case '"':
			end := stringEnd(b, i)
			if end < 0 {
				return b
			}
			switch {
			case top == nil || !top.obj:
			case top.wantKey:
				top.wantKey = false
				switch k := b[i+1 : end-1]; {
				case bytes.EqualFold(k, []byte("name")), bytes.EqualFold(k, []byte("key")): // HAR, Postman
					top.cur = name
				case bytes.EqualFold(k, []byte("value")):
					top.cur = value
				case bytes.EqualFold(k, []byte("cookies")):
					top.cur = cookies
				}
			case top.cur == name:
				var s string
				if json.Unmarshal(b[i:end], &s) == nil && isSecretHeader(s) {
					top.secret = true
				}
			}
			i = end - 1
		case ':':
			if top != nil && top.obj {
				top.curStart = skipWS(b, i+1)
			}
		case ',':
			if top != nil && top.obj {
				endMember(top, i)
				top.wantKey = true
			}
		case '{', '[':
			f := frame{obj: b[i] == '{', wantKey: b[i] == '{', curStart: -1}
			if top != nil {
				// A "cookies" list (a HAR's, Playwright's storageState):
				// each cookie's name is the cookie's, not a header's, and
				// its value is a secret.
				f.cookieList = !f.obj && top.obj && top.cur == cookies && top.curStart == i
				f.secret = f.obj && !top.obj && top.cookieList
			}
			stack = append(stack, f)
		case '}', ']':
			if top == nil || top.obj != (b[i] == '}') {
				return b
			}
			if top.obj {
				endMember(top, i)
				if top.secret {
					reps = append(reps, top.values...)
				}
			}
			stack = stack[:len(stack)-1]
		}
	}
	if len(reps) == 0 {
		return b
	}
	// An object closes after those it holds: inner pairs inside an outer
	// pair's value are covered by it.
	slices.SortFunc(reps, func(x, y [2]int) int { return x[0] - y[0] })
	var out []byte
	last := 0
	for _, r := range reps {
		if r[0] < last {
			continue
		}
		rep := `"` + Redacted + `"`
		if b[r[0]] == '[' {
			rep = `["` + Redacted + `"]`
		}
		out = append(append(out, b[last:r[0]]...), rep...)
		last = r[1]
	}
	return append(out, b[last:]...)
}

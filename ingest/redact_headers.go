package ingest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// secretHeaders are the header names whose values are secrets, lower case:
// every spelling of the API-key header (with or without X-, with '-', '_'
// or nothing between its words, as headers, query parameters and JSON keys
// write it) and X-Auth-Token among them.
var secretHeaders = []string{"authorization", "proxy-authorization", "cookie", "set-cookie",
	"x-api-key", "api-key", "x-api_key", "api_key", "x-apikey", "apikey", "x-auth-token"}

// secretHeaderKeys are secretHeaders without their '-' and '_', which
// isSecretHeader drops too: X_API_KEY, x_apikey, X_Auth_Token, apiKey and
// xApiKey are all one name.
var secretHeaderKeys = func() map[string]bool {
	m := map[string]bool{}
	for _, h := range secretHeaders {
		m[strings.NewReplacer("-", "", "_", "").Replace(h)] = true
	}
	return m
}()

// redactHeaders rewrites the JSON document b so that no secret header's
// value survives, wherever a header name appears: inside any string value
// (re-encoded after redaction, so escapes stay valid), as an object key
// ({"X-Api-Key": ...}, whose value is replaced, a string, an array, an
// object or a number) and as the name of a name/value pair
// ({"name":"Authorization","value":...}); and a "cookies" list's cookies
// have their values replaced (see redactPairs). b is
// returned as is when there is nothing to redact. Strings that hold HTML
// (every one when html is set, else a widgetHtml field's) are read as
// widget HTML (see redactHeaderText).
func redactHeaders(b []byte, html bool) []byte {
	if !hasHeaderName(b) {
		return b
	}
	b = redactPairs(b)
	var out []byte
	last := 0
	splice := func(from, to int, with []byte) {
		out = append(append(out, b[last:from]...), with...)
		last = to
	}
	for i := 0; i < len(b); i++ {
		if b[i] != '"' {
			continue
		}
		end := stringEnd(b, i)
		if end < 0 {
			break // not valid JSON: left to the other rules
		}
		lit := b[i:end]
		if !hasHeaderName(lit) {
			i = end - 1
			continue
		}
		var s string
		if json.Unmarshal(lit, &s) != nil {
			i = end - 1
			continue
		}
		if v := skipWS(b, end); v < len(b) && b[v] == ':' && isSecretHeader(s) {
			// An object key: replace its value.
			vs := skipWS(b, v+1)
			if ve, rep := redactedValue(b, vs); ve > vs {
				splice(vs, ve, rep)
				i = ve - 1
				continue
			}
		}
		if vs := pairValue(b, end); vs > 0 && isSecretHeader(s) {
			// The name of a {"name":...,"value":...} pair: replace the value.
			if ve, rep := redactedValue(b, vs); ve > vs {
				splice(vs, ve, rep)
				i = ve - 1
				continue
			}
		}
		if r := redactStringText(s, html, html || isWidgetHTML(b, i)); r != s {
			splice(i, end, encodeString(r))
		}
		i = end - 1
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}

// redactStringText redacts the text s of a JSON string: its header
// lines, and a JSON document in it (a response body in an error, with
// text around it), whose keys and name/value pairs are read as the
// result's are. The text is read first, as it was before documents in
// it were: a value there may run on past the document's delimiters (to
// the end of a line that a folded header, escaped as \r\n in the
// document, does not end), and nothing it redacts may survive. The
// document is then redacted in what remains, when it is still one; when
// the text's values broke it, the document is redacted in s first and
// the text read after, a value the document pass redacted running to
// the end of its line (see redactHeaderText), as it may have before.
func redactStringText(s string, docHTML, html bool) string {
	k, e := strings.IndexAny(s, "{["), strings.LastIndexAny(s, "}]")
	if k < 0 || e <= k || !json.Valid([]byte(s[k:e+1])) {
		return redactHeaderText(s, html, false)
	}
	t := redactHeaderText(s, html, false)
	if k, e := strings.IndexAny(t, "{["), strings.LastIndexAny(t, "}]"); k >= 0 && e > k && json.Valid([]byte(t[k:e+1])) {
		return t[:k] + string(redactHeaders([]byte(t[k:e+1]), docHTML)) + t[e+1:]
	}
	return redactHeaderText(s[:k]+string(redactHeaders([]byte(s[k:e+1]), docHTML))+s[e+1:], html, true)
}

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
				case bytes.EqualFold(k, []byte("name")):
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

// pairValue returns where the value of a {"name":...,"value":...} pair
// starts when the JSON string ending at b[end] is followed by its
// "value" key, else 0.
func pairValue(b []byte, end int) int {
	i := skipWS(b, end)
	if i >= len(b) || b[i] != ',' {
		return 0
	}
	i = skipWS(b, i+1)
	if !bytes.HasPrefix(b[i:], []byte(`"value"`)) {
		return 0
	}
	i = skipWS(b, i+len(`"value"`))
	if i >= len(b) || b[i] != ':' {
		return 0
	}
	return skipWS(b, i+1)
}

// isWidgetHTML reports whether the JSON string at b[i] is the value of a
// widgetHtml key.
func isWidgetHTML(b []byte, i int) bool {
	return bytes.HasSuffix(bytes.TrimRight(b[:i], " \t\r\n"), []byte(`"widgetHtml":`))
}

// redactHeaderText replaces each secret header's value in s, keeping the
// shape of the value (brackets, braces, quotes) so the text still reads;
// html marks s as widget HTML, whose bare values run to the end of the
// source line as text's do, and further in the forms htmlValue and
// wrapped read. A name found inside a value already redacted
// extends the redaction to its own value, so one header cannot shield
// another's secret. It is linear in len(s): names come in order, and every
// search for a value's end goes through a valueScanner.
//
// redone marks s as redacted already in part (see redactStringText): a
// value that starts as one redacted does (isRedactedAt) then runs to the
// end of its line.
func redactHeaderText(s string, html, redone bool) string {
	var b strings.Builder
	sc := newValueScanner(s)
	last, end := 0, 0
	for _, m := range headerNames(s) {
		vStart, vEnd := sc.headerValue(m[1])
		if redone && vEnd > vStart && isRedactedAt(s, vStart) {
			// A value redacted already, by the pass over a JSON document
			// in s: what it was may have run on past its delimiters, so it
			// runs to the end of the line, as a bare value does.
			vEnd = max(vEnd, sc.lineEnd(vStart))
		} else if html {
			switch {
			case vEnd == vStart:
				vStart, vEnd = sc.htmlValue(m[0], m[1])
			case !strings.ContainsRune(`["'`, rune(s[vStart])):
				vEnd = sc.wrapped(vStart, vEnd)
			}
		}
		if vEnd == vStart {
			continue // a name without a value, as in "authorization failed"
		}
		vEnd = sc.folded(vEnd)
		if m[0] < end {
			if vEnd > end {
				last, end = vEnd, vEnd // drop the rest of that value too
			}
			continue
		}
		b.WriteString(s[last:vStart])
		b.WriteString(redactedShape(s[vStart:vEnd]))
		last, end = vEnd, vEnd
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// redactedForms are the shapes a value redacted in a JSON document takes
// (redactedValue, redactPairs and redactedShape write them).
var redactedForms = [...]string{Redacted, `"` + Redacted + `"`, `'` + Redacted + `'`, `["` + Redacted + `"]`,
	"[" + Redacted + "]", `[]string{"` + Redacted + `"}`}

// isRedactedAt reports whether a value redacted already starts at s[i].
func isRedactedAt(s string, i int) bool {
	for _, f := range redactedForms {
		if strings.HasPrefix(s[i:], f) {
			return true
		}
	}
	return false
}

// headerNames returns the start and end of every secret header's name in
// decoded text, in order and in any ASCII case; headerValue then reads
// the separator and value after each, in the spellings Go and tools
// print: "Name: value" lines, name=value pairs, http.Header printed with
// %v (map[Name:[v1 v2]]) or %#v (http.Header{"Name":[]string{"v"}}), JSON
// ({"Name":["v"]}, "Name": "v") and a HAR-style {"name":"Name","value":"v"}
// pair. A bare value runs to the end of its source line, in widget HTML
// too: no tag is taken to end it, since a regexp cannot tell a <br> or
// block tag that ends the line shown from one inside a comment, a quoted
// attribute or a <script>, and redacting the rest of a one-line page is
// the safe side.
//
// The names are those the regexp
// (?i)(?:proxy-)?authorization|(?:set-)?cookie|(?:x-)?api[-_]?key|x[-_]?auth[-_]?token
// finds with FindAllStringIndex (the tests hold headerNames to it; the
// names cannot overlap), found by hand: every one has a 'z' or a 'k', so
// one pass over s finds them all, where the regexp ran at a few MB/s.
func headerNames(s string) [][2]int {
	var out [][2]int
	for j := 0; j < len(s); j++ {
		if c := s[j] | 0x20; c != 'z' && c != 'k' {
			continue
		}
		if start, end := headerNameAt(s, j); end > 0 {
			out = append(out, [2]int{start, end})
			j = end - 1
		}
	}
	return out
}

// headerNameAt returns the secret header name around its 'z' or 'k' at
// s[j], with its optional prefix; end is 0 when there is none.
func headerNameAt(s string, j int) (start, end int) {
	if s[j]|0x20 == 'z' {
		if a := j - 7; hasFoldAt(s, a, "authorization") {
			if hasFoldAt(s, a-6, "proxy-") {
				a -= 6
			}
			return a, j + 6
		}
		return 0, 0
	}
	switch a := j - 3; {
	case hasFoldAt(s, a, "cookie"):
		if hasFoldAt(s, a-4, "set-") {
			a -= 4
		}
		return a, j + 3
	case hasFoldAt(s, a, "apikey"):
		if hasFoldAt(s, a-2, "x-") {
			a -= 2
		}
		return a, j + 3
	case hasFoldAt(s, a-1, "api-key") || hasFoldAt(s, a-1, "api_key"):
		if hasFoldAt(s, a-3, "x-") {
			return a - 3, j + 3
		}
		return a - 1, j + 3
	case hasFoldAt(s, j-2, "token"):
		a := j - 2
		if a > 0 && (s[a-1] == '-' || s[a-1] == '_') {
			a--
		}
		if !hasFoldAt(s, a-4, "auth") {
			return 0, 0
		}
		a -= 4
		if a > 0 && (s[a-1] == '-' || s[a-1] == '_') {
			a--
		}
		if hasFoldAt(s, a-1, "x") {
			return a - 1, j + 3
		}
	}
	return 0, 0
}

// valueScanner reads header values in s for names found in increasing
// order. Each delimiter a value may end at has its own nextByte, so the
// searches for one delimiter cover s once however many names there are.
type valueScanner struct {
	s                                 string
	cr, lf, quote, squote, rbrack, rb nextByte
	cellEnd                           nextByte // a '<' that ends a table cell (isCellEnd)
	wrapFrom, wrapTo                  int      // the span wrapped read last (see there)
	wrapFound                         bool     // and whether it found a line that shows something
	foldFrom, foldTo                  int      // the span folded read last (see there)
}

func newValueScanner(s string) *valueScanner {
	return &valueScanner{s: s, cr: nextByte{c: '\r', from: -1}, lf: nextByte{c: '\n', from: -1},
		quote: nextByte{c: '"', from: -1}, squote: nextByte{c: '\'', from: -1},
		rbrack: nextByte{c: ']', from: -1}, rb: nextByte{c: '}', from: -1},
		cellEnd: nextByte{c: '<', from: -1, match: isCellEnd}, wrapFrom: -1, foldFrom: -1, foldTo: -2}
}

// headerValue returns the value after the separator that follows a
// header name ending at p: [vStart, vEnd), empty when there is no
// separator or no value. The forms, tried in order: []string{...}
// (Go's %#v), [...] (%v, a JSON array), "...", '...', else the rest of
// the line. An opening bracket, brace or quote never closed runs to the
// end of the line.
func (sc *valueScanner) headerValue(p int) (int, int) {
	s := sc.s
	v := separatorEnd(s, p)
	if v < 0 || v >= len(s) {
		return p, p
	}
	closing := func(nb *nextByte, from int) int {
		if j := nb.find(s, from); j >= 0 {
			return j + 1
		}
		return sc.lineEnd(v)
	}
	switch {
	case strings.HasPrefix(s[v:], "[]string{"):
		return v, closing(&sc.rb, v+len("[]string{"))
	case s[v] == '[':
		return v, closing(&sc.rbrack, v+1)
	case s[v] == '"':
		return v, closing(&sc.quote, v+1)
	case s[v] == '\'':
		return v, closing(&sc.squote, v+1)
	}
	return v, sc.lineEnd(v)
}

// htmlValue reads, in widget HTML, a secret header's value that the text
// forms miss, after a name at s[m0:m1] followed only by tags and white
// space: a separator after markup around the name (<b>Cookie</b>: v) or
// on the next line, its value running to the end of the line (see
// wrapped); or a label cell (<th>, <dt>, or a <td> holding just the name)
// closed (or not: HTML may leave it open) and the next <td> or <dd>
// opened, the value running to the end
// of that cell. Over-redaction is the safe side: a cell is taken to end
// at the next cell or row tag, or at the end of s. Tags skipped are
// bounded, so the cost per name is too.
func (sc *valueScanner) htmlValue(m0, m1 int) (int, int) {
	s := sc.s
	cellOnly := strings.HasSuffix(strings.TrimRight(s[max(0, m0-64):m0], " \t\r\n"), ">")
	j, closed, opened := m1, false, false
	for n := 0; n < 8 && j < len(s) && j-m1 < 512; {
		c := s[j]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' {
			j++
			continue
		}
		if c != '<' || opened && j+1 < len(s) && s[j+1] == '/' {
			break // text, or the end of an empty cell
		}
		e := strings.IndexByte(s[j:min(len(s), j+256)], '>')
		if e < 0 {
			break
		}
		switch tag := s[j+1 : j+e]; {
		case isTag(tag, "/th") || isTag(tag, "/dt") || cellOnly && isTag(tag, "/td"):
			closed = true
		case (closed || cellOnly) && (isTag(tag, "td") || isTag(tag, "dd")):
			opened = true
		}
		j += e + 1
		n++
	}
	switch {
	case opened:
		if e := sc.cellEnd.find(s, j); e >= 0 {
			return j, e
		}
		return j, len(s)
	case j < len(s) && (s[j] == ':' || s[j] == '='):
		v := skipBlanks(s, j+1)
		return v, sc.wrapped(v, sc.lineEnd(v))
	}
	return m1, m1
}

// wrapped extends a bare value [v, e) that ends its source line to the
// end of the next line that is not blank, when what the line shows of it
// is nothing or an auth scheme alone: in HTML a line break outside
// <pre> is a space, so a formatter may have put the rest of the value
// there (Cookie:\n sid=..., Authorization: Basic\n <base64>).
//
// Its scans are remembered: everything from wrapFrom to the start of the
// line ending at wrapTo is line breaks and lines that show nothing, so a
// scan from any line end in that span has the same answer (wrapTo, or
// none when wrapFound is false and the span runs to the end of s). A later
// scan stops on reaching that span, so however many names sit on the
// lines it covers (a tag per line, each with a name in it), they are read
// once.
func (sc *valueScanner) wrapped(v, e int) int {
	s := sc.s
	if e != sc.lineEnd(v) || e-v > 256 {
		return e
	}
	if e == sc.wrapFrom && sc.wrapFound {
		return sc.wrapTo // another name on the same line
	}
	if shown := strings.TrimSpace(stripTags(s[v:e])); shown != "" && !isAuthScheme(shown) {
		return e
	}
	to, found := e, false
	for p := e; p < len(s); {
		if sc.wrapFrom >= 0 && sc.wrapFrom <= p && (p < sc.wrapTo || !sc.wrapFound) {
			to, found = sc.wrapTo, sc.wrapFound // the rest was read before
			if !found {
				to = e
			}
			break
		}
		for p < len(s) && (s[p] == '\r' || s[p] == '\n') {
			p++
		}
		le := sc.lineEnd(p)
		if le-p > 256 || strings.TrimSpace(stripTags(s[p:le])) != "" {
			to, found = le, true
			break
		}
		p = le
	}
	if sc.wrapFrom < 0 || e < sc.wrapFrom || e >= sc.wrapTo && sc.wrapFound {
		sc.wrapFrom = e
	} // else e is inside the span read before, which this answer extends
	sc.wrapTo, sc.wrapFound = to, found
	if !found {
		sc.wrapTo = len(s)
	}
	return to
}

// folded extends a value ending at e, when e ends its line, over the
// lines that continue it: an obs-fold (RFC 9112 5.2), a line break
// followed by a space or a tab, is part of the header's value
// (Authorization: Basic\r\n dXNl...). The lines from foldFrom to
// foldTo, read last, all continue one value: a value ending among them
// runs on to foldTo without reading them again (names inside a folded
// value, one per continuation line, would otherwise each read the rest).
func (sc *valueScanner) folded(e int) int {
	s := sc.s
	if sc.foldFrom <= e && e <= sc.foldTo {
		return sc.foldTo
	}
	from := e
	for e < len(s) && (s[e] == '\r' || s[e] == '\n') {
		p := e + 1
		if s[e] == '\r' && p < len(s) && s[p] == '\n' {
			p++
		}
		if p >= len(s) || s[p] != ' ' && s[p] != '\t' {
			break
		}
		e = sc.lineEnd(p)
	}
	if e > from {
		sc.foldFrom, sc.foldTo = from, e
	}
	return e
}

// isAuthScheme reports whether w is an HTTP authentication scheme's name
// (IANA's registry, and the common Token), in any case.
func isAuthScheme(w string) bool {
	switch strings.ToLower(w) {
	case "basic", "bearer", "digest", "dpop", "gnap", "hoba", "mutual", "negotiate", "ntlm", "oauth",
		"privatetoken", "scram-sha-1", "scram-sha-256", "vapid", "token", "hawk", "aws4-hmac-sha256", "concealed":
		return true
	}
	return false
}

// stripTags is s without its tags (a '<' that starts none ends s).
func stripTags(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '<')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		e := strings.IndexByte(s[i:], '>')
		if e < 0 {
			return b.String()
		}
		s = s[i+e+1:]
	}
}

// isTag reports whether tag (what is between '<' and '>') is the element
// name, in any case, followed by nothing, white space, '/' or attributes.
func isTag(tag, name string) bool {
	if !hasFoldAt(tag, 0, name) {
		return false
	}
	if len(tag) == len(name) {
		return true
	}
	c := tag[len(name)]
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '/'
}

// isCellEnd reports whether a cell's content ends at s[p]: a '<' that
// starts a cell or row tag, opening or closing, or the end of a table or
// a definition list.
func isCellEnd(s string, p int) bool {
	e := strings.IndexByte(s[p:min(len(s), p+16)], '>')
	tag := s[p+1:]
	if e >= 0 {
		tag = s[p+1 : p+e]
	}
	for _, name := range [...]string{"td", "/td", "th", "/th", "dd", "/dd", "dt", "/dt", "tr", "/tr", "/table", "/dl", "/tbody"} {
		if isTag(tag, name) {
			return true
		}
	}
	return false
}

// lineEnd is the index of the first '\r' or '\n' at or after i, or len(s).
func (sc *valueScanner) lineEnd(i int) int {
	e := len(sc.s)
	for _, nb := range []*nextByte{&sc.cr, &sc.lf} {
		if j := nb.find(sc.s, i); j >= 0 && j < e {
			e = j
		}
	}
	return e
}

// separatorEnd returns where a value starts after a header name ending
// at p: after ["']?[ \t]*[:=] or "[ \t]*,[ \t]*"value"[ \t]*: (a name/value
// pair) and the blanks that follow; -1 when neither is there.
func separatorEnd(s string, p int) int {
	j := p
	if j < len(s) && (s[j] == '"' || s[j] == '\'') {
		j++
	}
	j = skipBlanks(s, j)
	if j < len(s) && (s[j] == ':' || s[j] == '=') {
		return skipBlanks(s, j+1)
	}
	if p >= len(s) || s[p] != '"' {
		return -1
	}
	j = skipBlanks(s, p+1)
	if j >= len(s) || s[j] != ',' {
		return -1
	}
	j = skipBlanks(s, j+1)
	if !strings.HasPrefix(s[j:], `"value"`) {
		return -1
	}
	j = skipBlanks(s, j+len(`"value"`))
	if j >= len(s) || s[j] != ':' {
		return -1
	}
	return skipBlanks(s, j+1)
}

// skipBlanks returns the index of the first byte at or after i that is
// not a space or a tab.
func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// nextByte finds the first c at or after a position, remembering its
// last answer: for positions that do not decrease, the searches together
// read s once.
type nextByte struct {
	c     byte
	from  int                        // the last search started here, or -1
	at    int                        // and found c here, or -1
	match func(s string, p int) bool // when set, only a c it accepts counts
}

func (nb *nextByte) find(s string, i int) int {
	if nb.from >= 0 && nb.from <= i && (nb.at < 0 || nb.at >= i) {
		return nb.at
	}
	nb.from, nb.at = i, -1
	for p := i; p < len(s); p++ {
		j := strings.IndexByte(s[p:], nb.c)
		if j < 0 {
			break
		}
		if p += j; nb.match == nil || nb.match(s, p) {
			nb.at = p
			break
		}
	}
	return nb.at
}

// redactedShape is Redacted in the delimiters of val.
func redactedShape(val string) string {
	switch {
	case strings.HasPrefix(val, "[]string{"):
		return `[]string{"` + Redacted + `"}`
	case strings.HasPrefix(val, "["):
		return "[" + Redacted + "]"
	case strings.HasPrefix(val, `"`):
		return `"` + Redacted + `"`
	case strings.HasPrefix(val, "'"):
		return "'" + Redacted + "'"
	}
	return Redacted
}

// redactedValue returns the end of the JSON value at b[i] and its
// replacement when it is a string, an array (of header values), an object
// or a number; ok is signalled by end > i.
func redactedValue(b []byte, i int) (int, []byte) {
	if i >= len(b) {
		return i, nil
	}
	switch c := b[i]; {
	case c == '"':
		if end := stringEnd(b, i); end > 0 {
			return end, []byte(`"` + Redacted + `"`)
		}
	case c == '-' || '0' <= c && c <= '9':
		// A number: a key or token written as one.
		j := i + 1
		for j < len(b) && strings.IndexByte("0123456789.eE+-", b[j]) >= 0 {
			j++
		}
		return j, []byte(`"` + Redacted + `"`)
	case c == '[' || c == '{':
		// An array (of header values), or an object (a cookie jar by
		// name, a value with its parameters): redacted whole.
		rep := []byte(`["` + Redacted + `"]`)
		if c == '{' {
			rep = []byte(`"` + Redacted + `"`)
		}
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				end := stringEnd(b, j)
				if end < 0 {
					return i, nil
				}
				j = end - 1
			case '[', '{':
				depth++
			case ']', '}':
				depth--
				if depth == 0 {
					return j + 1, rep
				}
			}
		}
	}
	return i, nil
}

// stringEnd returns the index after the JSON string starting at b[i], or -1.
func stringEnd(b []byte, i int) int {
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// isSecretHeader reports whether name is a secret header's, in any ASCII
// case and with any '-' and '_' between its words, or none.
func isSecretHeader(name string) bool {
	if len(name) > 32 {
		return false // longer than any spelling, separators included
	}
	var buf [32]byte
	k := buf[:0]
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '-' || c == '_':
		case 'A' <= c && c <= 'Z':
			k = append(k, c+'a'-'A')
		default:
			k = append(k, c)
		}
	}
	return secretHeaderKeys[string(k)]
}

// encodeString encodes s as the reporter's encoder does (no HTML escaping).
func encodeString(s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// hasHeaderName reports whether b holds a secret header's name in any
// ASCII case: authorization, cookie, or one of keyWords.
func hasHeaderName(b []byte) bool {
	return containsFoldAt(b, "authorization", 7) || containsFoldAt(b, "cookie", 3) || containsKeyWord(b)
}

// keyWords are the secret header names (or their tails) that have a 'k',
// each with its offset: containsKeyWord finds them all in one search.
var keyWords = [...]struct {
	word string
	k    int
}{{"api-key", 4}, {"api_key", 4}, {"apikey", 3}, {"auth-token", 7}, {"auth_token", 7}, {"authtoken", 6}}

// containsKeyWord reports whether b contains one of keyWords in any ASCII
// case, finding candidates by their 'k' as containsFoldAt does.
func containsKeyWord(b []byte) bool {
	for _, c := range [2]byte{'k', 'K'} {
		for off := 0; off < len(b); {
			j := bytes.IndexByte(b[off:], c)
			if j < 0 {
				break
			}
			j += off
			for _, w := range keyWords {
				if i := j - w.k; i >= 0 && hasFoldAt(b, i, w.word) {
					return true
				}
			}
			off = j + 1
		}
	}
	return false
}

// hasFoldAt reports whether b[i:] starts with word (lower-case ASCII) in
// any ASCII case.
func hasFoldAt[T string | []byte](b T, i int, word string) bool {
	if i < 0 || len(b)-i < len(word) {
		return false
	}
	for k := 0; k < len(word); k++ {
		c := b[i+k]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != word[k] {
			return false
		}
	}
	return true
}

// containsFoldAt reports whether b contains word (lower-case ASCII) in any
// ASCII case. Candidates are found with bytes.IndexByte (vectorized) on
// word[pivot] in both cases, a letter picked to be rare in test output, so
// a result without it costs two fast scans instead of a look at every byte.
func containsFoldAt(b []byte, word string, pivot int) bool {
	for _, c := range [2]byte{word[pivot], word[pivot] - ('a' - 'A')} {
		for off := 0; off < len(b); {
			j := bytes.IndexByte(b[off:], c)
			if j < 0 {
				break
			}
			j += off
			if i := j - pivot; i >= 0 && hasFoldAt(b, i, word) {
				return true
			}
			off = j + 1
		}
	}
	return false
}

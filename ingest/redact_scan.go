package ingest

import "strings"

// valueScanner reads header values in s for names found in increasing
// order. Each delimiter a value may end at has its own nextByte, so the
// searches for one delimiter cover s once however many names there are.
type valueScanner struct {
	s                                 string
	cr, lf, quote, squote, rbrack, rb nextByte
	restCR, restLF                    nextByte // for restOfLine
	cellEnd                           nextByte // a '<' that ends a table cell (isCellEnd)
	wrapFrom, wrapTo                  int      // the span wrapped read last (see there)
	wrapFound                         bool     // and whether it found a line that shows something
	foldFrom, foldTo                  int      // the span folded read last (see there)
}

func newValueScanner(s string) *valueScanner {
	return &valueScanner{s: s, cr: nextByte{c: '\r', from: -1}, lf: nextByte{c: '\n', from: -1},
		quote: nextByte{c: '"', from: -1}, squote: nextByte{c: '\'', from: -1},
		rbrack: nextByte{c: ']', from: -1}, rb: nextByte{c: '}', from: -1},
		restCR: nextByte{c: '\r', from: -1}, restLF: nextByte{c: '\n', from: -1},
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
// (Authorization: Basic\r\n dXNl...), but for a line that is go test's
// own: a test's next log message ("    x_test.go:7: ..."), which go test
// indents as it indents the line with the header, or a "--- FAIL" or
// "=== RUN" line; the failure's reason was dropped as the value. The
// lines from foldFrom to foldTo, read last, all continue one value: a
// value ending among them runs on to foldTo without reading them again
// (names inside a folded value, one per continuation line, would
// otherwise each read the rest).
func (sc *valueScanner) folded(e int) int {
	s := sc.s
	if sc.foldFrom <= e && e <= sc.foldTo {
		return sc.foldTo
	}
	if e >= len(s) || s[e] != '\r' && s[e] != '\n' {
		return e // the value does not end its line
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
		le := sc.lineEnd(p)
		if goTestLine(s[p+blanks(s, p) : le]) {
			break
		}
		e = le
	}
	// Remembered even when nothing continued the value: many names whose
	// values end at this line end must not each read the next line again.
	sc.foldFrom, sc.foldTo = from, e
	return e
}

// closedValue reports whether the value [v, e) that headerValue found is
// a quoted or bracketed one that its closing delimiter ended (one never
// closed runs to its line's end, as a bare value does).
func closedValue(s string, v, e int) bool {
	var closer byte
	switch {
	case strings.HasPrefix(s[v:], "[]string{"):
		return e > v+len("[]string{") && s[e-1] == '}'
	case s[v] == '[':
		closer = ']'
	case s[v] == '"':
		closer = '"'
	case s[v] == '\'':
		closer = '\''
	default:
		return false
	}
	return e-v >= 2 && s[e-1] == closer
}

// valueEnds reports whether a quoted or bracketed value [v, e) ends at
// e, where its closing delimiter left it: what follows is the end of s or
// of the line (blanks before it allowed), or ',', ')', ']' or '}' (blanks
// before it allowed: the next member, or the end of the JSON, Go or
// Python structure the value is in), or the quote that ends a string the
// header line is quoted in, or, when no blank separates the value from
// its ':' or '=', one space and the next key and its ':' or '=' (Go's %v
// of an http.Header, map[Authorization:[x] Other:[y]], and logfmt's
// name="x" next=y). Anything else, on a header line such as
// "Authorization: [x] Basic hunter2", is more of the value.
//
// A quote (double or single, or \") ends a string the line is quoted in
// only when what follows it ends a value itself (closingQuotes): in
// {"message":"Cookie: [REDACTED]"} or f('Cookie: [x]', y) it does, but
// in Authorization: "Bearer a" "hunter2" the second quote opens a string,
// which is more of the value.
func valueEnds(s string, v, e int) bool {
	p := skipBlanks(s, e)
	if p == len(s) || strings.IndexByte("\r\n,)]}", s[p]) >= 0 {
		return true
	}
	if closingQuotes(s, p) {
		return true
	}
	if p != e+1 || s[e] != ' ' || v == 0 || s[v-1] != ':' && s[v-1] != '=' {
		return false
	}
	k := p
	for k < len(s) && k-p < 64 && isKeyChar(s[k]) {
		k++
	}
	return k > p && k < len(s) && (s[k] == ':' || s[k] == '=')
}

// closingQuotes reports whether s[p:] is one or more quotes (a double or
// single quote, or \", blanks between them allowed) that close strings
// the value is in: after them come the end of s or of the line, or ',',
// ')', ']', '}' or ':' (a member's end, or a dict key's). It reads no more
// than the quotes and blanks it passes over, which valueEnds's caller
// reads once per value end.
func closingQuotes(s string, p int) bool {
	n := 0
	for p < len(s) {
		switch {
		case s[p] == '"' || s[p] == '\'':
			p++
		case strings.HasPrefix(s[p:], `\"`):
			p += 2
		default:
			return n > 0 && strings.IndexByte("\r\n,)]}:", s[p]) >= 0
		}
		n++
		p = skipBlanks(s, p)
	}
	return n > 0
}

// isKeyChar reports whether c may be in a key that valueEnds reads.
func isKeyChar(c byte) bool {
	return isASCIIAlnum(c) || c == '-' || c == '_' || c == '.'
}

// restOfLine is the index of the first '\r' or '\n' at or after i, or
// len(s), for a closed value that runs on: redactHeaderText asks only
// past every value it took, so its searches read s once (lineEnd's serve
// headerValue, whose positions a value's end may pass).
func (sc *valueScanner) restOfLine(i int) int {
	e := len(sc.s)
	for _, nb := range []*nextByte{&sc.restCR, &sc.restLF} {
		if j := nb.find(sc.s, i); j >= 0 && j < e {
			e = j
		}
	}
	return e
}

// blanks counts the spaces and tabs at s[p:].
func blanks(s string, p int) int {
	n := 0
	for p+n < len(s) && (s[p+n] == ' ' || s[p+n] == '\t') {
		n++
	}
	return n
}

// goTestLine reports whether line, its indentation removed, is one go test
// writes itself: a log message's "file.go:N: " prefix, or a test's
// "--- " result or "=== " progress line.
func goTestLine(line string) bool {
	if strings.HasPrefix(line, "--- ") || strings.HasPrefix(line, "=== ") {
		return true
	}
	// The prefix is one short token: only the line's head is read, so a
	// huge line costs no more than a short one.
	head := line[:min(len(line), 256)]
	if b := strings.IndexAny(head, " \t"); b >= 0 {
		head = head[:b+1]
	}
	i := strings.Index(head, ".go:")
	if i <= 0 {
		return false
	}
	j := i + len(".go:")
	k := j
	for k < len(head) && head[k] >= '0' && head[k] <= '9' {
		k++
	}
	return k > j && k+1 < len(head) && head[k] == ':' && head[k+1] == ' '
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

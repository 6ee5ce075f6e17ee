package ingest

import (
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/projectops/projectops-go/internal/apierr"
	"golang.org/x/text/encoding/charmap"
)

// FormatError is a malformed input file. Results read before the error
// were already recorded.
type FormatError struct {
	Format string // junit, jest or vitest
	// Offset is the input byte offset near the problem.
	Offset int64
	Err    error
}

// Error describes the problem and where it is.
func (e *FormatError) Error() string {
	return fmt.Sprintf("projectops: malformed %s input near byte %d: %v", e.Format, e.Offset, e.Err)
}

// Unwrap returns the decoder's error.
func (e *FormatError) Unwrap() error { return e.Err }

// maxFailureText bounds a failure's kept text (head and tail).
const maxFailureText = 8 << 10

// ReadJUnit streams a JUnit XML report (any nesting of testsuites) and
// records one result per testcase, titled "classname::name" (or name; a
// testcase without a name attribute is named "test-<n>", n its 1-based
// position among the document's testcases). A
// testcase with a failure or error element fails, with their messages and
// text as Error ("JUnit testcase failed" when they have none; each a 4
// KiB head and 4 KiB tail at most, the middle replaced by a marker;
// system-out and system-err follow); one with a
// skipped element is only counted (see SourceStats). A testcase's time
// (seconds) is its duration, rounded to whole milliseconds; an unparsable or non-finite one is none, a
// negative one 0. Control characters XML 1.0 forbids, raw or as
// references (the ANSI colour codes some writers keep), are dropped with
// the colour sequence an ESC starts; other malformed XML is a FormatError,
// whose Offset then counts the input without them. It checks ctx between
// elements and returns its error once it has ended.
func ReadJUnit(ctx context.Context, r io.Reader, rec Recorder) (SourceStats, error) {
	if ctx == nil {
		return SourceStats{}, apierr.NilContext()
	}
	var st SourceStats
	dec := xml.NewDecoder(newCtrlFilter(r))
	dec.CharsetReader = junitCharset
	occ := map[string]int{}
	var cur *junitCase
	pos := 0 // testcases begun so far
	for {
		if err := ctxDone(ctx); err != nil {
			return st, err
		}
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if cur != nil {
				return st, &FormatError{Format: "junit", Offset: dec.InputOffset(), Err: errors.New("unterminated testcase")}
			}
			return st, nil
		}
		if err != nil {
			return st, &FormatError{Format: "junit", Offset: dec.InputOffset(), Err: err}
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch {
			case t.Name.Local == "testcase" && cur == nil:
				pos++
				cur = &junitCase{pos: pos}
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "name":
						cur.name, cur.named = a.Value, true
					case "classname":
						cur.class = a.Value
					case "time":
						cur.ms = junitMillis(a.Value)
					}
				}
			case cur != nil:
				cur.start(t)
			}
		case xml.EndElement:
			if cur == nil {
				continue
			}
			if t.Name.Local == "testcase" && cur.depth == 0 {
				if err := cur.emit(ctx, rec, &st, occ); err != nil {
					return st, err
				}
				cur = nil
				continue
			}
			cur.depth--
			cur.in = ""
		case xml.CharData:
			if cur != nil && cur.in != "" {
				cur.text(cur.in, t)
			}
		}
	}
}

type junitCase struct {
	name, class     string
	named           bool // it has a name attribute
	pos             int  // its 1-based position among the document's testcases
	ms              float64
	failed, skipped bool
	depth           int
	in              string // element whose text is being kept
	msg, out        headTail
}

func (c *junitCase) start(t xml.StartElement) {
	c.depth++
	c.in = ""
	switch t.Name.Local {
	case "failure", "error":
		c.failed = true
		c.in = "failure"
		for _, a := range t.Attr {
			if (a.Name.Local == "message" || a.Name.Local == "type") && a.Value != "" {
				c.msg.add([]byte(a.Value))
				c.msg.add([]byte{'\n'})
			}
		}
	case "skipped":
		c.skipped = true
	case "system-out", "system-err":
		c.in = "output"
	}
}

func (c *junitCase) text(in string, data []byte) {
	if in == "failure" {
		c.msg.add(data)
	} else {
		c.out.add(data)
	}
}

// headTail keeps the first junitWindow bytes of a text written in pieces
// and a window over its last ones (junitWindow to twice that), so a text
// of any length costs bounded memory yet keeps its real end.
// Pieces are whole UTF-8 (encoding/xml's text and attribute values).
type headTail struct {
	head, tail []byte
	n          int // bytes written
}

// junitWindow is half of maxFailureText, the margin cutText redacts
// beyond it, and room for white space at the text's ends, which is
// trimmed and would otherwise come out of the margin.
const junitWindow = maxFailureText/2 + cutMargin + 1<<10

func (b *headTail) add(p []byte) {
	// Once a byte went to the tail the head is closed, so the two stay in
	// order.
	if room := junitWindow - len(b.head); room > 0 && len(b.head) == b.n {
		k := min(room, len(p))
		// The head ends on a whole character; the rest goes to the tail.
		for k < len(p) && k > 0 && !utf8.RuneStart(p[k]) {
			k--
		}
		b.head = append(b.head, p[:k]...)
		b.n += k
		p = p[k:]
	}
	b.n += len(p)
	switch {
	case len(p) == 0:
	case len(p) >= junitWindow:
		b.tail = append(b.tail[:0], p[len(p)-junitWindow:]...)
	case len(b.tail)+len(p) > 2*junitWindow:
		// Slide the window: keep its last junitWindow bytes. Copying
		// only once it has doubled keeps this linear in the input.
		keep := copy(b.tail, b.tail[len(b.tail)+len(p)-junitWindow:])
		b.tail = append(b.tail[:keep], p...)
	default:
		b.tail = append(b.tail, p...)
	}
}

// text is the text, trimmed, cut to keep bytes as cutMiddle cuts it
// (redacted by rd first, half from each end, never inside a UTF-8
// character), with a marker giving the bytes removed from the trimmed
// whole, including those that were never kept.
func (b *headTail) text(rd redactor, keep int) string {
	if b.n == len(b.head)+len(b.tail) { // nothing was dropped
		return rd.cutMiddle(strings.TrimSpace(string(b.head)+string(b.tail)), keep)
	}
	h := strings.TrimLeftFunc(string(b.head), unicode.IsSpace)
	t := strings.TrimRightFunc(string(b.tail), unicode.IsSpace)
	// The tail window may start inside a character: cutText drops its
	// start with the margin.
	lead, trail := len(b.head)-len(h), len(b.tail)-len(t)
	return rd.cutText(h, t, b.n-lead-trail, keep/2, keep-keep/2, "")
}

// junitMillis turns a testcase's time (seconds) into whole milliseconds,
// rounded as the service's reporter rounds them. An
// unparsable or non-finite one (NaN, Inf, 1e400, or finite seconds that
// overflow as milliseconds) is no duration, as with the reference reporter:
// JSON cannot encode a non-finite number, so keeping it would fail the
// send mid-run. A negative one is 0, as the reference clamps it: a
// duration cannot be negative.
func junitMillis(v string) float64 {
	secs, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
	ms := secs * 1000
	if err != nil || math.IsNaN(ms) || math.IsInf(ms, 0) || ms < 0 {
		return 0
	}
	return math.Round(ms)
}

func (c *junitCase) emit(ctx context.Context, rec Recorder, st *SourceStats, occ map[string]int) error {
	st.Events++
	// A testcase without a name attribute is "test-<position>", as the
	// service's reporter names it.
	name := c.name
	if !c.named {
		name = "test-" + strconv.Itoa(c.pos)
	}
	title := name
	if c.class != "" {
		title = c.class + "::" + name
	}
	if strings.TrimSpace(title) == "" {
		title = "(unnamed testcase)"
	}
	if c.skipped && !c.failed {
		st.Skipped++
		return nil
	}
	occ[title]++
	res := Result{CaseTitle: title, Passed: !c.failed, DurationMs: c.ms,
		ExternalIterationID: IterationID(occ[title], "junit", title)}
	if c.failed {
		st.Failed++
		// A failure with neither message nor text gets the service's
		// reporter's fallback rather than an empty error.
		rd := cutRedactor(rec)
		res.Error = orStr(c.msg.text(rd, maxFailureText), "JUnit testcase failed")
		if out := c.out.text(rd, maxFailureText); out != "" {
			res.Error += "\n--- output:\n" + out
		}
	} else {
		st.Passed++
	}
	return rec.Record(ctx, res)
}

// junitCharset reads the single-byte encodings JUnit writers declare
// besides UTF-8 (encoding/xml reads only UTF-8 itself).
func junitCharset(label string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(label) {
	case "us-ascii", "ascii":
		return input, nil
	case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "l1":
		return charmap.ISO8859_1.NewDecoder().Reader(input), nil
	case "windows-1252", "cp1252":
		return charmap.Windows1252.NewDecoder().Reader(input), nil
	}
	return nil, fmt.Errorf("unsupported encoding %q", label)
}

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
// records one result per testcase, titled "classname::name" (or name). A
// testcase with a failure or error element fails, with their messages and
// text as Error (bounded; system-out and system-err follow); one with a
// skipped element is only counted (see SourceStats). A testcase's time
// (seconds) is its duration; an unparsable or non-finite one is none, a
// negative one 0. It checks ctx between elements and returns its error
// once it has ended.
func ReadJUnit(ctx context.Context, r io.Reader, rec Recorder) (SourceStats, error) {
	if ctx == nil {
		return SourceStats{}, apierr.NilContext()
	}
	var st SourceStats
	dec := xml.NewDecoder(r)
	dec.CharsetReader = junitCharset
	occ := map[string]int{}
	var cur *junitCase
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
				cur = &junitCase{}
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "name":
						cur.name = a.Value
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
	ms              float64
	failed, skipped bool
	depth           int
	in              string // element whose text is being kept
	msg, out        strings.Builder
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
				c.add(&c.msg, a.Value+"\n")
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
		c.add(&c.msg, string(data))
	} else {
		c.add(&c.out, string(data))
	}
}

// add keeps at most twice maxFailureText per builder; emit cuts the rest.
func (c *junitCase) add(b *strings.Builder, s string) {
	if room := 2*maxFailureText - b.Len(); room > 0 {
		if len(s) > room {
			s = s[:room]
		}
		b.WriteString(s)
	}
}

// junitMillis turns a testcase's time (seconds) into milliseconds. An
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
	return ms
}

func (c *junitCase) emit(ctx context.Context, rec Recorder, st *SourceStats, occ map[string]int) error {
	st.Events++
	title := c.name
	if c.class != "" {
		title = c.class + "::" + c.name
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
		res.Error = truncateMiddle(strings.TrimSpace(c.msg.String()), maxFailureText)
		if out := strings.TrimSpace(c.out.String()); out != "" {
			res.Error += "\n--- output:\n" + truncateMiddle(out, maxFailureText)
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

package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"sync"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/option"
)

// maskWriter writes what the tests print redacted as the reporter
// redacts what it sends and spools (redact, the reporter's rules), and
// with the CLI's own API key masked by value whatever its shape: a test
// that logs its request headers or a tunnel URL would otherwise show them
// in a CI log. It masks whole lines (each write up to its last newline:
// a failing test's report is one write), so a secret split across writes
// is still whole when it is looked for; Flush writes a last line without
// its newline. A line longer than maskedLineMax is written in pieces (see
// cut).
type maskWriter struct {
	mu       sync.Mutex
	w        io.Writer
	redact   func(string) string // nil: the key alone
	secret   []byte              // the key, masked in any spelling (keyMask)
	key      *wire.Scrubber      // secret's mask, made on first use
	buf      []byte              // the line being written
	dropLine bool                // the line's start was written redacted to its end: drop the rest (see cut)
	dropped  int                 // bytes of the line dropped so far
}

// maxSpellingPerByte is how many bytes one byte of the key may take in a
// spelling its mask finds (wire.KeyValues): a \uXXXX escape (6 bytes)
// whose every byte is escaped so once more. A cut keeps that many times
// the key's length back, so that its first point lies before a key spelt
// so; a nearer one would fail cut's check and cost more tries.
const maxSpellingPerByte = 36

// maskedLineMax bounds a line held back waiting for its newline.
const maskedLineMax = 64 << 10

// maskedTailKept is what a line longer than maskedLineMax keeps back, at
// least, when it is cut (or the key's longest spelling, if longer: see
// maxSpellingPerByte). It is the bound
// on a secret's length this relies on: a secret the rules only know whole
// (the key by value, URL credentials up to their '@', a \u-escaped token
// compared decoded) that starts before the cut ends in the text held, so
// redacting that text sees all of it. API keys, tunnel secrets, bearer
// and OAuth tokens are far shorter than 1 KiB. It is also what the rules
// read back from a match: a ';k=' secret is one only in a query, whose
// '?' or '&' the rule looks for up to wire.MaxQueryBack bytes before the
// ';'; with less kept, a ';k=' written after the cut lost its query and
// was echoed in clear. Hence the rule's look back, and 1 KiB more.
const maskedTailKept = wire.MaxQueryBack + 1<<10

// maskedCutStep is the distance cutPoints starts from: it looks for a
// byte that ends a token up to that far before its first point, then
// goes back by it, doubled at each point.
const maskedCutStep = 1 << 10

// maskedCutTries bounds the cut points close to the end that cut tries
// (see cutPoints), each costing two redactions of the held line.
const maskedCutTries = 8

func (m *maskWriter) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(p)
	if m.dropLine {
		i := bytes.IndexByte(p, '\n')
		if i < 0 {
			m.dropped += len(p)
			return n, nil
		}
		m.dropped += i
		if err := m.endDrop(); err != nil {
			return n, err
		}
		p = p[i:]
	}
	m.buf = append(m.buf, p...)
	if end := bytes.LastIndexByte(p, '\n') + 1; end > 0 { // what was held has none
		end += len(m.buf) - len(p)
		err := m.write(m.buf[:end])
		m.buf = append(m.buf[:0], m.buf[end:]...)
		if err != nil {
			return n, err
		}
	}
	if len(m.buf) > maskedLineMax {
		return n, m.cut()
	}
	return n, nil
}

// cut writes the start of the held line, which has grown over
// maskedLineMax without a newline, and keeps the rest (at least
// maskedTailKept bytes or the key's longest spelling, at most half of
// maskedLineMax) for the next
// write. Redacted in two pieces, a secret across the cut would match in
// neither, so the cut is put where the redacted pieces, side by side, are
// the whole held text redacted: no match of the rules spans it. The
// points tried (cutPoints) are that many bytes before the end, then
// a few bytes before it that end a token (white space, quotes, brackets,
// punctuation), then points ever further back, to half of maskedLineMax
// before the end: a match that spans the first points (a ?k= value of
// minified code, whose punctuation gives many points close together)
// begins before one of them. When none is such a point (a header's value,
// which runs to the end of its line, spans them all), the held text is
// written redacted whole and the rest of the line, which the match would
// have taken, is dropped; a marker saying how many bytes were dropped
// ends the line (see endDrop), so no output goes missing unseen.
func (m *maskWriter) cut() error {
	keep := min(max(maxSpellingPerByte*len(m.secret), maskedTailKept), maskedLineMax/2)
	whole := m.mask(m.buf)
	for _, c := range cutPoints(m.buf, len(m.buf)-keep, len(m.buf)-maskedLineMax/2) {
		head := m.mask(m.buf[:c])
		if !bytes.HasPrefix(whole, head) || !bytes.Equal(whole[len(head):], m.mask(m.buf[c:])) {
			continue
		}
		_, err := m.w.Write(head)
		m.buf = append(m.buf[:0], m.buf[c:]...)
		return err
	}
	_, err := m.w.Write(whole)
	m.buf, m.dropLine, m.dropped = m.buf[:0], true, 0
	return err
}

// cutPoints returns the points cut tries in b, best first, none below
// low: first, then up to maskedCutTries bytes before it that end a token,
// then points 1, 2, 4, ... KiB before first (each moved back to a byte
// that ends a token, when one is near), and low. At most
// 2*maskedCutTries points: each costs two redactions of b.
func cutPoints(b []byte, first, low int) []int {
	low = max(low, 1)
	if first < low {
		return nil
	}
	pts := []int{first}
	for c := first - 1; c >= low && c > first-maskedCutStep && len(pts) <= maskedCutTries; c-- {
		if endsToken(b[c]) {
			pts = append(pts, c)
		}
	}
	for d := maskedCutStep; ; d *= 2 {
		c := max(first-d, low)
		for s := c; s >= max(low, c-maskedCutBack); s-- {
			if endsToken(b[s]) {
				c = s
				break
			}
		}
		if c < pts[len(pts)-1] {
			pts = append(pts, c)
		}
		if c == low || first-d <= low {
			return pts
		}
	}
}

// maskedCutBack is how far cutPoints looks back from a point for a byte
// that ends a token.
const maskedCutBack = 256

// endDrop ends a line cut dropped the rest of: a marker saying how many
// bytes of it were not written.
func (m *maskWriter) endDrop() error {
	m.dropLine = false
	if m.dropped == 0 {
		return nil
	}
	_, err := fmt.Fprintf(m.w, "[… line truncated by projectops: %d bytes]", m.dropped)
	m.dropped = 0
	return err
}

// endsToken reports whether c is no part of a word: a cut point cut tries.
func endsToken(c byte) bool {
	return !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c >= 0x80)
}

// Flush writes what is held back.
func (m *maskWriter) Flush() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.write(m.buf)
	m.buf = m.buf[:0]
	if m.dropLine {
		if e := m.endDrop(); err == nil {
			err = e
		}
	}
	return err
}

func (m *maskWriter) write(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := m.w.Write(m.mask(b))
	return err
}

// mask is b masked as the writer masks it (maskText), its key's mask made
// on first use; m.mu is held.
func (m *maskWriter) mask(b []byte) []byte {
	if m.key == nil && len(m.secret) > 0 {
		m.key = keyMask(string(m.secret), "[REDACTED]")
	}
	return maskText(b, m.redact, m.key)
}

// maskText is b with the key, when key is set, masked by value in any
// spelling, then redacted by redact (when set).
func maskText(b []byte, redact func(string) string, key *wire.Scrubber) []byte {
	if key != nil {
		s := string(b)
		if r := key.Scrub(s); r != s { // scrubbed once: cut masks often
			b = []byte(r)
		}
	}
	if redact != nil {
		b = []byte(redact(string(b)))
	}
	return b
}

// keyMask is what masks key under marker wherever the CLI prints text it
// did not write, by value, in any spelling the SDK's errors find it in
// (wire.KeyValues: percent- or JSON-escaped, in part, two layers deep);
// nil without a key.
func keyMask(key, marker string) *wire.Scrubber {
	return wire.NewScrubber(wire.KeyValues(key, marker))
}

// apiKeySecret is the key in PROJECTOPS_API_KEY, masked by value wherever
// the CLI prints text it did not write (nil when it is too short to mask
// without mangling the text: client() has refused an empty one).
func apiKeySecret() []byte {
	if k := os.Getenv(option.EnvAPIKey); len(k) >= 8 {
		return []byte(k)
	}
	return nil
}

// outputRedactor redacts text the CLI prints or writes to a file but did
// not write itself (an eval iteration's reason, which quotes the tool
// calls' arguments; a trace): the key by value, then the reporter's rules
// (ingest's RedactText).
func outputRedactor(c *projectops.Client) func(string) string {
	key := keyMask(string(apiKeySecret()), "[REDACTED]")
	return func(s string) string { return c.Ingest.RedactText(key.Scrub(s)) }
}

// redactedJSON writes v as writeJSON does, redacted as the reporter
// redacts a result's JSON, with the key masked by value (the document
// staying JSON).
func redactedJSON(w io.Writer, c *projectops.Client, v any) error {
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		return err
	}
	doc := keyMask(string(apiKeySecret()), "[REDACTED]").ScrubRaw(b.String())
	_, err := w.Write(c.Ingest.RedactJSON([]byte(doc)))
	return err
}

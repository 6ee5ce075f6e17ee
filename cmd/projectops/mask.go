package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// maskWriter writes what the tests print redacted as the reporter
// redacts what it sends and spools (redact, the reporter's rules), and
// with the CLI's own API key masked by value whatever its shape: a test
// that logs its request headers or a tunnel URL would otherwise show them
// in a CI log. It masks whole lines (each write up to its last newline:
// a failing test's report is one write), so a secret split across writes
// is still whole when it is looked for; Flush writes a last line without
// its newline.
type maskWriter struct {
	mu     sync.Mutex
	w      io.Writer
	redact func(string) string // nil: the key alone
	secret []byte
	buf    []byte // the line being written
}

// maskedLineMax bounds a line held back waiting for its newline.
const maskedLineMax = 64 << 10

// maskedTailKept is what a line longer than maskedLineMax keeps back when
// it is cut: a secret's start (a header name and a token) stays whole.
const maskedTailKept = 1 << 10

func (m *maskWriter) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buf = append(m.buf, p...)
	end := bytes.LastIndexByte(m.buf, '\n') + 1
	if end == 0 && len(m.buf) > maskedLineMax {
		end = len(m.buf) - max(len(m.secret), maskedTailKept) // keep what may be a secret's start
	}
	if end <= 0 {
		return len(p), nil
	}
	err := m.write(m.buf[:end])
	m.buf = append(m.buf[:0], m.buf[end:]...)
	return len(p), err
}

// Flush writes what is held back.
func (m *maskWriter) Flush() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	err := m.write(m.buf)
	m.buf = m.buf[:0]
	return err
}

func (m *maskWriter) write(b []byte) error {
	if len(b) == 0 {
		return nil
	}
	_, err := m.w.Write(maskText(b, m.redact, m.secret))
	return err
}

// maskText is b with secret, when set, replaced by value, then redacted
// by redact (when set).
func maskText(b []byte, redact func(string) string, secret []byte) []byte {
	if len(secret) > 0 {
		b = bytes.ReplaceAll(b, secret, []byte("[REDACTED]"))
	}
	if redact != nil {
		b = []byte(redact(string(b)))
	}
	return b
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
	key := string(apiKeySecret())
	return func(s string) string {
		if key != "" {
			s = strings.ReplaceAll(s, key, "[REDACTED]")
		}
		return c.Ingest.RedactText(s)
	}
}

// redactedJSON writes v as writeJSON does, redacted as the reporter
// redacts a result's JSON, with the key masked by value.
func redactedJSON(w io.Writer, c *projectops.Client, v any) error {
	var b bytes.Buffer
	if err := writeJSON(&b, v); err != nil {
		return err
	}
	_, err := w.Write(c.Ingest.RedactJSON(maskText(b.Bytes(), nil, apiKeySecret())))
	return err
}

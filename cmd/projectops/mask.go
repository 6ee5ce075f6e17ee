package main

import (
	"bytes"
	"io"
	"sync"
)

// maskWriter writes what the tests print with the CLI's own API key
// masked: a test that logs its request headers would otherwise show the
// key in a CI log (the stored results are redacted by the reporter). It
// masks line by line, so a key split across writes is still whole when it
// is looked for; Flush writes a last line without its newline.
type maskWriter struct {
	mu     sync.Mutex
	w      io.Writer
	secret []byte
	buf    []byte // the line being written
}

// maskedLineMax bounds a line held back waiting for its newline.
const maskedLineMax = 64 << 10

func (m *maskWriter) Write(p []byte) (int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.buf = append(m.buf, p...)
	end := bytes.LastIndexByte(m.buf, '\n') + 1
	if end == 0 && len(m.buf) > maskedLineMax {
		end = len(m.buf) - len(m.secret) // keep what may be a key's start
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
	_, err := m.w.Write(bytes.ReplaceAll(b, m.secret, []byte("[REDACTED]")))
	return err
}

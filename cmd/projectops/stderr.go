package main

import (
	"io"
	"sync"
)

// lockedWriter serialises writes to stderr: a long wait's heartbeat writes
// from its own goroutine while progress lines and -v logs come from the
// command's, and run accepts any io.Writer, not only a file.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// unwrapWriter is the writer under a lockedWriter, for terminal checks.
func unwrapWriter(w io.Writer) io.Writer {
	if l, ok := w.(*lockedWriter); ok {
		return l.w
	}
	return w
}

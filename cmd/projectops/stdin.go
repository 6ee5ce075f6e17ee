package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/term"
)

// readStdin reads standard input for a "-" argument, refusing a terminal:
// a command waiting silently for typed input looks hung (report refuses
// one the same way).
func readStdin(ctx context.Context, limit int64) ([]byte, error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return nil, errStdinTerminal
	}
	b, err := readAll(ctx, io.LimitReader(stdin, limit+1))
	if err == nil && int64(len(b)) > limit {
		return nil, fmt.Errorf("standard input is over %d bytes", limit) // refused, not cut short
	}
	return b, err
}

// errStdinTerminal refuses "-" when standard input is a terminal.
var errStdinTerminal = errors.New("standard input is a terminal: pipe the input in (... | projectops ...) or name a file")

// readAll reads r to its end unless ctx ends first. main catches every
// signal, so a read from a terminal or a pipe nobody writes to would
// otherwise outlast Ctrl-C; the read itself goes on until r ends or the
// process exits.
func readAll(ctx context.Context, r io.Reader) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := io.ReadAll(r)
		done <- result{b, err}
	}()
	select {
	case res := <-done:
		return res.b, res.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

package main

import (
	"context"
	"io"
)

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

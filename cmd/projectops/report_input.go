package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/projectops/projectops-go/ingest"
	"golang.org/x/term"
)

// errNotGoTestJSON refuses stdin that is not what report reads from it.
var errNotGoTestJSON = errors.New("stdin is not `go test -json` output")

// goTestInput checks stdin before anything is reported: a terminal (nothing
// piped in), or text that does not start with a test2json event (plain `go
// test` output), is refused with a hint, so no empty or wrong run is made.
// It returns a reader that still yields every byte.
func goTestInput(in io.Reader) (io.Reader, error) {
	if f, ok := in.(*os.File); ok {
		// A terminal, not any character device: </dev/null is empty input.
		if term.IsTerminal(int(f.Fd())) {
			return nil, fmt.Errorf("%w: stdin is a terminal; pipe `go test -json ./...` into report, or run `projectops report -- go test ./...`", errNotGoTestJSON)
		}
	}
	// Build noise ("go: downloading ...") may come before the first event:
	// look through the first lines for one, as they arrive, so a live
	// stream is read from its first event on (waiting for 64 KiB held a
	// slow one back).
	br := bufio.NewReaderSize(in, 64<<10)
	var head []byte
	for len(head) < 64<<10 {
		_, err := br.Peek(len(head) + 1) // at least one byte more
		if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
			return nil, err
		}
		head, _ = br.Peek(br.Buffered())
		if err != nil || hasEventLine(head) {
			break
		}
	}
	if hasEventLine(head) {
		return br, nil
	}
	if len(bytes.TrimSpace(head)) == 0 {
		return nil, fmt.Errorf("%w: it is empty; nothing was reported", errNotGoTestJSON)
	}
	first, _, _ := bytes.Cut(bytes.TrimSpace(head), []byte("\n"))
	if len(first) > 60 {
		first = first[:60]
	}
	return nil, fmt.Errorf("%w (it starts with %q); run `go test -json ./... | projectops report` or `projectops report -- go test ./...`",
		errNotGoTestJSON, first)
}

// hasEventLine reports whether a line of head (the last may be partial)
// starts like a test2json event.
func hasEventLine(head []byte) bool {
	for line := range bytes.Lines(head) {
		if bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) {
			return true
		}
	}
	return false
}

// lazyReporter creates the reporter (and with it the run) at the first
// result, or when a source unwraps it just before recording a failing one,
// so a source that yields none never creates an empty run.
type lazyReporter struct {
	make func() (*ingest.Reporter, error)
	rep  *ingest.Reporter
}

func (l *lazyReporter) Record(ctx context.Context, r ingest.Result) error {
	if err := l.ensure(); err != nil {
		return err
	}
	return l.rep.Record(ctx, r)
}

// Unwrap creates the reporter too: a source asks for it just before it
// records a failing result, to redact text it cuts with the run's secrets
// before the cut (see ingest.Recorder).
func (l *lazyReporter) Unwrap() ingest.Recorder {
	if l.ensure() != nil {
		// Record makes it again and fails with the error, so nothing is
		// sent: NewReporter does no I/O and fails the same way each time.
		return nil
	}
	return l.rep
}

func (l *lazyReporter) ensure() error {
	if l.rep == nil {
		rep, err := l.make()
		if err != nil {
			return err
		}
		l.rep = rep
	}
	return nil
}

// close closes the reporter, if one was made.
func (l *lazyReporter) close(ctx context.Context) (*ingest.Outcome, error) {
	if l.rep == nil {
		return nil, nil
	}
	return l.rep.Close(ctx)
}

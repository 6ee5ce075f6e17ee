package main

import (
	"context"
	"io"
	"os"
	"runtime"

	"golang.org/x/term"
)

// stdinResultsFile copies standard input to a temporary file for a "-"
// results file (--junit -, --jest -, --vitest -): report reads the file
// twice (checked whole, then sent) and may upload it, which a pipe cannot
// give. A terminal is refused, as for every "-". The file is gone once
// done is called (on Unix, from the start).
func stdinResultsFile(ctx context.Context) (fh *os.File, done func(), err error) {
	if f, ok := stdin.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		return nil, nil, errStdinTerminal
	}
	fh, err = os.CreateTemp("", "projectops-report-*")
	if err != nil {
		return nil, nil, err
	}
	// Unlinked at once where an open file outlives its name, so a kill
	// (a second interrupt, SIGKILL) leaves no copy of the results behind;
	// elsewhere removed when done.
	removed := runtime.GOOS != "windows" && os.Remove(fh.Name()) == nil
	done = func() {
		fh.Close()
		if !removed {
			os.Remove(fh.Name())
		}
	}
	copied := make(chan error, 1)
	go func() {
		_, err := io.Copy(fh, stdin)
		copied <- err
	}()
	select {
	case err = <-copied:
	case <-ctx.Done():
		// The copy goes on until stdin ends or the process exits, as
		// readAll's read does; its file is removed now.
		err = ctx.Err()
	}
	if err == nil {
		_, err = fh.Seek(0, io.SeekStart)
	}
	if err != nil {
		done()
		return nil, nil, err
	}
	return fh, done, nil
}

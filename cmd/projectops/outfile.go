package main

import (
	"io"
	"os"
)

// stdoutPath is the output path that names standard output, as "-" names
// standard input for the input flags.
const stdoutPath = "-"

// writeOutput writes b to path, or to stdout when path is "-".
func (a *app) writeOutput(path string, b []byte) error {
	if path == stdoutPath {
		_, err := a.stdout.Write(b)
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

// appendOutput calls write on path opened for appending (created when
// missing), or on stdout when path is "-".
func (a *app) appendOutput(path string, write func(io.Writer) error) error {
	if path == stdoutPath {
		return write(a.stdout)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// stdoutPath is the output path that names standard output, as "-" names
// standard input for the input flags.
const stdoutPath = "-"

// checkOutput refuses, as bad usage, an output path that could not be
// written, before the work that feeds it: a report that fails only at the
// end would cost a whole run. It writes nothing: an existing file is
// opened for writing without truncating it, and a missing one is probed by
// creating and removing a temporary file beside it, so a refused or
// interrupted command leaves the path as it found it.
func checkOutput(flag, path string) error {
	if path == "" || path == stdoutPath {
		return nil
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return usagef("%s %s: is a directory, not a file", flag, path)
	case err == nil && st.Mode().IsRegular():
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return usagef("%s %s: cannot be written: %v", flag, path, pathErr(err))
		}
		return f.Close()
	case err == nil:
		// A device or a named pipe (/dev/stdout, <(...)): opening one may
		// block or be its reader's only open, so it is not probed.
		return nil
	}
	dir := filepath.Dir(path)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return usagef("%s %s: its directory does not exist", flag, path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return usagef("%s %s: %v", flag, path, pathErr(err))
	}
	f, err := os.CreateTemp(dir, ".projectops-probe-*")
	if err != nil {
		return usagef("%s %s: its directory cannot be written: %v", flag, path, pathErr(err))
	}
	f.Close()
	return os.Remove(f.Name())
}

// pathErr is err without the path a *fs.PathError repeats: the message
// already names the path as given.
func pathErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

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

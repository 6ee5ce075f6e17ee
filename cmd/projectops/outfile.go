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
// end would cost a whole run. It asks the system (access(2), for the
// effective user: mayWrite and mayCreateIn) and creates, opens and
// changes nothing, so a refused or interrupted command leaves the path,
// and its directory, as it found them. A symlink to a missing file is
// judged by the directory of the file a write through it would create.
func checkOutput(flag, path string) error {
	if path == "" || path == stdoutPath {
		return nil
	}
	st, err := os.Stat(path)
	switch {
	case err == nil && st.IsDir():
		return usagef("%s %s: is a directory, not a file", flag, path)
	case err == nil && st.Mode().IsRegular():
		if err := mayWrite(path, st); err != nil {
			return usagef("%s %s: cannot be written: %v", flag, path, pathErr(err))
		}
		return nil
	case err == nil:
		// A device or a named pipe (/dev/stdout, <(...)): whether it can
		// be written is up to its reader, so it is not judged.
		return nil
	}
	target, where := path, "its directory"
	if t := linkTarget(path); t != path {
		target, where = t, "the file it links to, "+t+", is in a directory that"
	}
	dir := filepath.Dir(target)
	dst, derr := os.Stat(dir)
	if derr != nil || !dst.IsDir() {
		if target != path {
			return usagef("%s %s: %s does not exist", flag, path, where)
		}
		return usagef("%s %s: its directory does not exist", flag, path)
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return usagef("%s %s: %v", flag, path, pathErr(err))
	}
	if err := mayCreateIn(dir); err != nil {
		if target != path {
			return usagef("%s %s: %s cannot be written: %v", flag, path, where, pathErr(err))
		}
		return usagef("%s %s: its directory cannot be written: %v", flag, path, pathErr(err))
	}
	return nil
}

// linkTarget is the file a write to path lands in: path itself, or, for
// a symlink (to a missing file), the end of its chain of links. A loop
// is left to the write to report.
func linkTarget(path string) string {
	for range 40 { // as Linux's own limit on links followed
		l, err := os.Readlink(path)
		if err != nil {
			return path
		}
		if !filepath.IsAbs(l) {
			l = filepath.Join(filepath.Dir(path), l)
		}
		path = l
	}
	return path
}

// sameFile reports whether the output paths a and b name one file: the
// same absolute path once symlinks to a missing file are followed (two
// spellings of a file neither write has created yet: r.xml and $PWD/r.xml,
// a dangling link to the other), or, when both exist, the same file by
// its identity (a hard link, a linked directory).
func sameFile(a, b string) bool {
	if a == "" || b == "" {
		return false
	}
	if absPath(linkTarget(a)) == absPath(linkTarget(b)) {
		return true
	}
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// absPath is path made absolute and cleaned, or cleaned as it is when the
// working directory cannot be found.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return filepath.Clean(path)
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

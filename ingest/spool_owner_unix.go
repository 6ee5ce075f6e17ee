//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package ingest

import (
	"fmt"
	"io/fs"
	"os"
	"syscall"
)

// openOwn opens a spool file for reading, refusing a link (O_NOFOLLOW: no
// window between a check and the open) and a file another user owns:
// Resume would send its content, under this user's key, to the project
// written inside it.
func openOwn(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return nil, notOwn(path, err)
	}
	fi, err := f.Stat()
	if err == nil && !owned(fi) {
		err = fmt.Errorf("projectops: ingest spool %s: not a regular file of this user; left alone", path)
	}
	if err != nil {
		_ = f.Close()
		return nil, err
	}
	return f, nil
}

// notOwn says what an O_NOFOLLOW open of a link fails with.
func notOwn(path string, err error) error {
	if pe, ok := err.(*fs.PathError); ok && pe.Err == syscall.ELOOP {
		return fmt.Errorf("projectops: ingest spool %s: a link; left alone", path)
	}
	return err
}

func owned(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return fi.Mode().IsRegular() && (!ok || int(st.Uid) == os.Getuid())
}

// checkSpoolDir refuses a spool directory that is a link, or that another
// user owns and others may write to (one planted in a shared temporary
// directory before this user's first run).
func checkSpoolDir(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return fmt.Errorf("projectops: ingest spool %s: a link; give the directory itself", dir)
	case !fi.IsDir():
		return fmt.Errorf("projectops: ingest spool %s: not a directory", dir)
	case ok && int(st.Uid) != os.Getuid() && fi.Mode().Perm()&0o022 != 0:
		return fmt.Errorf("projectops: ingest spool %s: another user's directory that others can write to", dir)
	}
	return nil
}

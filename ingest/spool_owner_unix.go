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

func owned(fi fs.FileInfo) bool { return fi.Mode().IsRegular() && mine(fi) }

// checkSpoolDir refuses a spool directory another user could have planted:
// a link this user does not own, or a directory (the link's target) that
// another user owns and others may write to, unless it is sticky (as /tmp
// is: nobody can replace this user's files there). The files in it are
// checked one by one anyway (O_EXCL, O_NOFOLLOW, owner).
func checkSpoolDir(dir string) error {
	li, err := os.Lstat(dir)
	if err != nil {
		return err
	}
	if li.Mode()&fs.ModeSymlink != 0 && !mine(li) {
		return fmt.Errorf("projectops: ingest spool %s: a link of another user", dir)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		return err
	}
	switch {
	case !fi.IsDir():
		return fmt.Errorf("projectops: ingest spool %s: not a directory", dir)
	case !mine(fi) && fi.Mode().Perm()&0o022 != 0 && fi.Mode()&fs.ModeSticky == 0:
		return fmt.Errorf("projectops: ingest spool %s: another user's directory that others can write to", dir)
	}
	return nil
}

func mine(fi fs.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return !ok || int(st.Uid) == os.Getuid()
}

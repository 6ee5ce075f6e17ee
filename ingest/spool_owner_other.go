//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package ingest

import (
	"fmt"
	"os"
)

// openOwn opens a spool file for reading, refusing what is not a regular
// file. These platforms have no owner to compare: their temporary
// directory is per user (Windows) or they have no other users.
func openOwn(path string) (*os.File, error) {
	if fi, err := os.Lstat(path); err != nil || !fi.Mode().IsRegular() {
		if err == nil {
			err = fmt.Errorf("projectops: ingest spool %s: not a regular file; left alone", path)
		}
		return nil, err
	}
	return os.Open(path)
}

// checkSpoolDir refuses a spool directory that is not a directory (a link
// to one is fine).
func checkSpoolDir(dir string) error {
	fi, err := os.Stat(dir)
	if err == nil && !fi.IsDir() {
		err = fmt.Errorf("projectops: ingest spool %s: not a directory", dir)
	}
	return err
}

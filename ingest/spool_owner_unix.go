//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package ingest

import (
	"fmt"
	"os"
	"syscall"
)

// ownedByMe refuses a spool file another user owns: Resume would send its
// results, under this user's key, to the project written inside it.
func ownedByMe(path string) error {
	fi, err := os.Lstat(path)
	if err != nil {
		return err
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return nil
	}
	if int(st.Uid) != os.Getuid() || !fi.Mode().IsRegular() {
		return fmt.Errorf("projectops: ingest spool %s: not a regular file of this user; left alone", path)
	}
	return nil
}

//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd || windows)

package ingest

import "os"

// tryLock does not lock on platforms without flock or LockFileEx (plan9,
// wasm, aix, solaris, illumos): concurrent resumes of one directory are not
// excluded there (Resume's doc says so).
func tryLock(*os.File) error { return nil }

func unlockFile(*os.File) error { return nil }

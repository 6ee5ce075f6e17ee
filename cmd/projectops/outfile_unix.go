//go:build unix

package main

import (
	"io/fs"

	"golang.org/x/sys/unix"
)

// mayWrite reports whether the effective user may open the file at path
// for writing, without opening it: a read-only file system is caught too
// where faccessat2(2) works; x/sys falls back to the permission bits when
// it does not (ENOSYS, or EPERM from a seccomp filter).
func mayWrite(path string, _ fs.FileInfo) error {
	return unix.Faccessat(unix.AT_FDCWD, path, unix.W_OK, unix.AT_EACCESS)
}

// mayCreateIn reports whether the effective user may create a file in
// dir, without creating one.
func mayCreateIn(dir string) error {
	return unix.Faccessat(unix.AT_FDCWD, dir, unix.W_OK|unix.X_OK, unix.AT_EACCESS)
}

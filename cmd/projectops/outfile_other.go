//go:build !unix

package main

import "io/fs"

// mayWrite reports whether the file st describes may be written, by its
// mode (Windows' read-only attribute): there is no access(2) to ask, and
// opening the file would be writing to find out.
func mayWrite(_ string, st fs.FileInfo) error {
	if st.Mode().Perm()&0o200 == 0 {
		return fs.ErrPermission
	}
	return nil
}

// mayCreateIn accepts any existing directory: without access(2) the
// write itself is the only test, and a directory's read-only attribute
// does not stop creating files in it on Windows.
func mayCreateIn(string) error { return nil }

package ingest

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"time"
)

// resumeLockFile, in a spool directory, is locked by the Resume working on
// it, so two resumes of one directory (two `projectops report resume`, a CI
// retry) run one after the other instead of sending, finalizing and
// removing the same files at once. The lock is an OS file lock, released
// when the process ends however it ends; the file itself stays.
const resumeLockFile = ".resume.lock"

// errLocked is what tryLock returns while another process (or Resume)
// holds the lock.
var errLocked = errors.New("spool directory locked")

// lockSpoolDir waits until it holds dir's resume lock, or ctx ends. A
// directory that does not exist has nothing to resume and needs no lock.
func lockSpoolDir(ctx context.Context, dir string) (unlock func(), err error) {
	f, err := os.OpenFile(filepath.Join(dir, resumeLockFile), os.O_CREATE|os.O_RDWR, 0o600)
	if errors.Is(err, fs.ErrNotExist) {
		return func() {}, nil
	}
	if err != nil {
		return nil, err
	}
	wait := 5 * time.Millisecond
	for {
		err := tryLock(f)
		if err == nil {
			return func() { _ = unlockFile(f); _ = f.Close() }, nil
		}
		if !errors.Is(err, errLocked) {
			_ = f.Close()
			return nil, err
		}
		// Another resume is running: it may take as long as its uploads,
		// so poll gently until it is done.
		tm := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			tm.Stop()
			_ = f.Close()
			return nil, ctx.Err()
		case <-tm.C:
		}
		wait = min(2*wait, 250*time.Millisecond)
	}
}

//go:build linux || darwin

package ingest

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// A fresh spool whose lock another process holds for longer than a
// glance (a Resume descheduled on a loaded machine) is waited for: the
// writer holds the lock before its first line, so its spool never passes
// for a dead writer's.
func TestLockFreshWaitsOutAHolder(t *testing.T) {
	t.Parallel()
	p := filepath.Join(t.TempDir(), "x"+SpoolExt)
	w, err := os.OpenFile(p, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	other, err := os.Open(p) // Resume's look, held past 200 ms
	if err != nil {
		t.Fatal(err)
	}
	if err := tryLock(other); err != nil {
		t.Fatal(err)
	}
	go func() { time.Sleep(300 * time.Millisecond); _ = unlockFile(other); _ = other.Close() }()
	if err := lockFresh(w); err != nil {
		t.Fatal(err)
	}
	if _, err := w.WriteString(`{"kind":"run"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	if st, err := spoolState(p); err != nil || st != spoolLive {
		t.Errorf("live writer's spool state = %d (%v), want spoolLive (%d)", st, err, spoolLive)
	}
}

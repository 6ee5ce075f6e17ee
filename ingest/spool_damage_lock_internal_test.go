//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package ingest

import (
	"os"
	"path/filepath"
	"testing"
)

// ackAll changes no file a live writer holds (its flock says so): its torn
// last line may be the record it is writing.
func TestAckAllLeavesALiveWritersFile(t *testing.T) {
	t.Parallel()
	const content = `{"kind":"run","v":1,"project":"p","run":{"suiteName":"s","externalRunId":"e"}}` + "\n" +
		`{"kind":"chunk","seq":1,"results":[{"caseTitle":"a"}]}` + "\n" +
		`{"kind":"chunk","seq":2,"res`
	p := filepath.Join(t.TempDir(), "x"+SpoolExt)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := os.OpenFile(p, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if err := tryLock(w); err != nil {
		t.Fatal(err)
	}
	if err := ackAll(p); err == nil {
		t.Error("ackAll acknowledged a live writer's file")
	}
	if b, err := os.ReadFile(p); err != nil || string(b) != content {
		t.Errorf("a live writer's file after ackAll = %q, %v; want it unchanged", b, err)
	}
}

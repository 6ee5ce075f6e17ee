package main

import (
	"bytes"
	"context"
	"strings"
	"syscall"
	"testing"
)

// fullWriter is a stdout on a full disk (> /dev/full).
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// Output that cannot be written fails the command (exit 2, the error on
// stderr), in text as under --json: "projectops eval iterations RUN >
// out.txt" on a full disk must not report success.
func TestTextWriteErrorFails(t *testing.T) {
	demoAPI(t)
	for _, args := range [][]string{
		{"version"}, {"version", "--json"},
		{"env", "list", "-p", "prj_demo"},
	} {
		var e bytes.Buffer
		if code := run(context.Background(), args, fullWriter{}, &e); code != 2 || !strings.Contains(e.String(), "no space left") {
			t.Errorf("%v > /dev/full: exit %d, stderr %q; want 2 and the write error", args, code, e.String())
		}
	}
}

//go:build unix

package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A symlink to a missing file is judged by the directory the write
// through it lands in, not by the link's own: a link into a missing
// directory is refused up front (the late write would fail, the run
// spent), one into an existing directory passes and the write succeeds.
func TestCheckOutputFollowsDanglingSymlink(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "report.xml")
	if err := os.Symlink(filepath.Join(dir, "missing", "x.xml"), broken); err != nil {
		t.Fatal(err)
	}
	err := checkOutput("--junit", broken)
	if _, ok := errors.AsType[usageError](err); !ok || !strings.Contains(err.Error(), "--junit "+broken+": the file it links to") {
		t.Errorf("checkOutput(link into a missing directory) = %v, want a usage error naming the link's target", err)
	}
	if err := os.Mkdir(filepath.Join(dir, "out"), 0o755); err != nil {
		t.Fatal(err)
	}
	good := filepath.Join(dir, "summary.md")
	if err := os.Symlink(filepath.Join("out", "s.md"), good); err != nil { // relative: to the link's directory
		t.Fatal(err)
	}
	if err := checkOutput("--summary", good); err != nil {
		t.Errorf("checkOutput(link into an existing directory) = %v", err)
	}
	if err := os.WriteFile(good, []byte("x"), 0o644); err != nil {
		t.Errorf("the write checkOutput accepted fails: %v", err)
	}
}

// A symlink to the other report's file is the same file too.
func TestSameFileThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	f, link := filepath.Join(dir, "r.xml"), filepath.Join(dir, "link")
	if err := os.WriteFile(f, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("r.xml", link); err != nil {
		t.Fatal(err)
	}
	if !sameFile(f, link) {
		t.Error("a symlink to the file is not the same file")
	}
	if sameFile(f, filepath.Join(dir, "other")) {
		t.Error("two paths are the same file")
	}
}

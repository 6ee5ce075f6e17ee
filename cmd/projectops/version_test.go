package main

import (
	"runtime/debug"
	"strings"
	"testing"
)

func TestVersionLine(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26.8", Main: debug.Module{Version: "v1.2.3"},
		Settings: []debug.BuildSetting{{Key: "vcs.revision", Value: "abc123"}, {Key: "vcs.modified", Value: "true"}}}
	if got := buildVersion(bi, true).line(); got != "projectops v1.2.3 (commit abc123, modified) go1.26.8" {
		t.Errorf("versionLine = %q", got)
	}
	if got := buildVersion(&debug.BuildInfo{GoVersion: "go1.26.8"}, true).line(); got != "projectops (devel) go1.26.8" {
		t.Errorf("devel = %q", got)
	}
	var out, errOut strings.Builder
	if code := run(t.Context(), []string{"version"}, &out, &errOut); code != 0 || !strings.HasPrefix(out.String(), "projectops ") {
		t.Errorf("version: exit %d, %q %q", code, out.String(), errOut.String())
	}
	if code := run(t.Context(), []string{"version", "extra"}, &out, &errOut); code != 2 {
		t.Errorf("version extra: exit %d, want 2", code)
	}
}

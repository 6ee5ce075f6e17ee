package main

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"
)

// runVersion prints the module version and, when the binary was built from
// a VCS checkout, the commit it was built from (and whether it was dirty).
func runVersion(_ context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 {
		fmt.Fprintln(stderr, "Usage: projectops version")
		return 2
	}
	fmt.Fprintln(stdout, versionLine(debug.ReadBuildInfo()))
	return 0
}

func versionLine(bi *debug.BuildInfo, ok bool) string {
	if !ok {
		return "projectops (unknown version)"
	}
	version := bi.Main.Version
	if version == "" {
		version = "(devel)"
	}
	line := "projectops " + version
	var rev, dirty string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				dirty = ", modified"
			}
		}
	}
	if rev != "" {
		line += " (commit " + rev + dirty + ")"
	}
	return line + " " + bi.GoVersion
}

package main

import (
	"fmt"
	"io"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// newVersionCmd prints the module version and, when the binary was built
// from a VCS checkout, the commit it was built from (and whether it was
// dirty).
func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the module version and the commit it was built from",
		Args:  exactArgs(0, ""),
		RunE: func(*cobra.Command, []string) error {
			v := buildVersion(debug.ReadBuildInfo())
			return a.print(v, func(w io.Writer) { fmt.Fprintln(w, v.line()) })
		},
	}
}

// version is what "projectops version" reports.
type version struct {
	Version  string `json:"version"`
	Commit   string `json:"commit,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go,omitempty"`
}

func buildVersion(bi *debug.BuildInfo, ok bool) version {
	if !ok {
		return version{Version: "(unknown)"}
	}
	v := version{Version: bi.Main.Version, Go: bi.GoVersion}
	if v.Version == "" {
		v.Version = "(devel)"
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			v.Commit = s.Value
		case "vcs.modified":
			v.Modified = s.Value == "true"
		}
	}
	return v
}

func (v version) line() string {
	line := "projectops " + v.Version
	if v.Commit != "" {
		dirty := ""
		if v.Modified {
			dirty = ", modified"
		}
		line += " (commit " + v.Commit + dirty + ")"
	}
	if v.Go != "" {
		line += " " + v.Go
	}
	return line
}

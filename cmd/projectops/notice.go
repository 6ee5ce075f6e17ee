package main

import (
	"fmt"
	"io"
)

// The command paths that report's lines name; exit names a failing
// command by its cobra path, which these match.
const (
	reportPath = "projectops report"
	resumePath = "projectops report resume"
)

// notef prints one line on w that names the command (path), as every
// error line of the CLI and the notices of report, report resume, serve
// and eval trace do (tunnel's say "tunnel"): with several tools writing to
// one CI log, a bare "projectops:" does not say which step spoke. The line
// carries the service's words (an error message, a run id), so its
// control characters and newlines are escaped (see printableField).
func notef(w io.Writer, path, format string, args ...any) {
	// A constant format of the caller's: vet checks it, and a % in path is
	// not read as a verb.
	fmt.Fprintln(w, printableField(path+": "+fmt.Sprintf(format, args...)))
}

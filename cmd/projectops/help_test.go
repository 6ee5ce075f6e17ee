package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

var update = flag.Bool("update", false, "rewrite the golden help files and docs/cli.md")

// commands walks the tree depth first, the root first; cobra's own help
// command is left out (it prints the same pages).
func commands(c *cobra.Command) []*cobra.Command {
	out := []*cobra.Command{c}
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() || sub.Name() == "completion" {
			out = append(out, commands(sub)...)
		}
	}
	return out
}

// golden compares got with testdata/<name>, or writes it with -update.
func golden(t *testing.T, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test ./cmd/projectops -update)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the command tree (run go test ./cmd/projectops -update):\n--- got\n%s\n--- want\n%s", path, got, want)
	}
}

// Every command's help is one format, pinned by a golden file: a change to
// a flag or a description shows up in review.
func TestHelpGolden(t *testing.T) {
	t.Setenv(envProject, "")
	for _, c := range commands(newRoot(&app{})) {
		path := c.CommandPath()
		t.Run(path, func(t *testing.T) {
			args := append(strings.Fields(path)[1:], "--help")
			var stdout, stderr bytes.Buffer
			if code := run(t.Context(), args, &stdout, &stderr); code != 0 || stderr.Len() > 0 {
				t.Fatalf("%v: exit %d, stderr %q", args, code, stderr.String())
			}
			golden(t, filepath.Join("testdata", "help", strings.ReplaceAll(path, " ", "_")+".txt"), stdout.Bytes())
		})
	}
}

// docs/cli.md is generated from the command tree, so it cannot drift.
func TestCLIReference(t *testing.T) {
	var b bytes.Buffer
	writeReference(&b, newRoot(&app{}))
	golden(t, filepath.Join("..", "..", "docs", "cli.md"), b.Bytes())
}

// writeReference renders the tree as Markdown: each command's synopsis,
// description and flags, in tree order.
func writeReference(w io.Writer, root *cobra.Command) {
	fmt.Fprint(w, "# projectops command reference\n\n")
	fmt.Fprint(w, "<!-- Generated from the command tree by `go test ./cmd/projectops -run TestCLIReference -update`; do not edit. -->\n\n")
	fmt.Fprint(w, "| Exit status | Meaning |\n|---|---|\n")
	fmt.Fprint(w, "| 0 | success |\n")
	fmt.Fprint(w, "| 1 | a gate failed: an eval run or reported tests failed, snapshots differ, a tool returned `isError`, a build failed |\n")
	fmt.Fprint(w, "| 2 | bad usage, a configuration error (no `PROJECTOPS_API_KEY`), or an API error; for `report resume`, a run not delivered, or a delivered run's spool files not removed or moved aside |\n")
	fmt.Fprint(w, "| 3 | `report resume` delivered everything it could read, but skipped damaged spool lines (said once: each damaged file is moved aside; said again while moving it aside fails) |\n\n")
	fmt.Fprint(w, "`report -- CMD` exits with CMD's own status (128+n when a signal n ended it, 127 when it was not found and 126 when it could not run, as a shell reports them). Stdout carries data only; progress, warnings and errors go to stderr. A request an interrupt (Ctrl-C, SIGTERM) cut short is said as `interrupted` (exit 2); `eval run` and `env build` add that the run or build they asked for may have started anyway, and how to find or cancel it. A second interrupt ends `report` at once: it dies of that signal, as a shell's Ctrl-C expects (a calling script stops too), or, when it started with SIGINT ignored (a background job), exits 130 (128+SIGINT; for a second SIGTERM, 143 only when SIGTERM was ignored at start too: otherwise it dies of SIGTERM, which a shell also shows as 143).\n\n")
	fmt.Fprint(w, "An error line on stderr names the command; an API error's reads: the request, the status and code, with `details.reason` and `details.field` in parentheses when the service sent them (no other detail: details may echo the request's values), the message and the request id, e.g. `projectops eval run: POST /projects/prj_1/eval-runs: 400 VALIDATION_ERROR (field tests[0].model): Unknown model ... [request req_1]`; `report --json` puts the same text in its `error` fields.\n\n")
	fmt.Fprint(w, "Text output (tables, lines, and the error, progress and build-log lines on stderr) shows control characters in what the service sends (names, titles, messages, logs) escaped, Go-style (`\\x1b`, `\\u009b`), so a stored name cannot retitle or clear the terminal; where such a string is one field of a line or a table cell, newline and tab are escaped too (`\\n`, `\\t`), so it cannot print a line of its own or shift a table's columns (a build log keeps its lines); a table cell also shows a run of spaces as one, and a cell cut short ends with `…` after whole escapes. `--json` keeps every string exact (JSON escapes control characters itself), and `tools call` prints JSON always. What `report` passes through from the tests is their own output, byte for byte.\n\n")
	fmt.Fprint(w, "`-` given to an output file flag (`eval run` or `eval status` `--junit` or `--summary`, `export -o`) writes that file to stdout, which then holds it alone. An output file that cannot be written (its directory missing, a directory, no write permission) is refused as bad usage before anything is sent, and nothing is written to find out.\n\n")
	fmt.Fprintf(w, "Global flags (every command):\n\n```\n%s```\n\n", root.PersistentFlags().FlagUsages())
	for _, c := range commands(root)[1:] {
		fmt.Fprintf(w, "## %s\n\n%s.\n\n", c.CommandPath(), strings.TrimSuffix(c.Short, "."))
		fmt.Fprintf(w, "```\n%s\n```\n\n", c.UseLine())
		if c.Long != "" {
			fmt.Fprintf(w, "%s\n\n", strings.TrimSpace(c.Long))
		}
		if fl := c.LocalNonPersistentFlags().FlagUsages(); fl != "" {
			fmt.Fprintf(w, "Flags:\n\n```\n%s```\n\n", fl)
		}
		if fl := c.PersistentFlags().FlagUsages(); fl != "" { // tools' --server, say
			fmt.Fprintf(w, "Flags of it and its subcommands:\n\n```\n%s```\n\n", fl)
		}
	}
}

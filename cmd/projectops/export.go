package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
)

// runExport writes a server's export snapshot (tools, resources, prompts)
// as JSON to stdout or --o, for committing and diffing in CI.
func runExport(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("projectops export", flag.ContinueOnError)
	fs.SetOutput(stderr)
	project := fs.String("project", os.Getenv(envProject), "project `id` (default $"+envProject+")")
	server := fs.String("server", "", "saved server `id`")
	out := fs.String("o", "", "write the snapshot to `file` instead of stdout")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: projectops export --project P --server S [-o FILE]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Writes the server's tools, resources and prompts as one JSON snapshot.")
		fmt.Fprintln(stderr, "Uses PROJECTOPS_API_KEY and PROJECTOPS_BASE_URL.")
		fmt.Fprintln(stderr)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "projectops export: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if !needFlags(stderr, fs.Usage, map[string]string{"project": *project, "server": *server}) {
		return 2
	}
	c, err := apiClient()
	if err != nil {
		return failSetup(stderr, "export", err)
	}
	snap, err := c.Servers.Export(ctx, *project, *server)
	if err != nil {
		return fail(stderr, "export", err)
	}
	var b bytes.Buffer
	if err := writeJSON(&b, snap); err != nil {
		return fail(stderr, "export", err)
	}
	if *out == "" {
		_, err = stdout.Write(b.Bytes())
	} else {
		err = os.WriteFile(*out, b.Bytes(), 0o644)
	}
	if err != nil {
		return fail(stderr, "export", err)
	}
	return 0
}

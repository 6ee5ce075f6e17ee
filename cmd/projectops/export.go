package main

import (
	"bytes"

	"github.com/spf13/cobra"
)

// newExportCmd writes a server's export snapshot (tools, resources,
// prompts) as JSON to stdout or -o, for committing and diffing in CI: the
// document as the service served it, indented, every field and number
// kept.
func newExportCmd(a *app) *cobra.Command {
	var server, out string
	cmd := &cobra.Command{
		Use:   "export --server ID [-o FILE]",
		Short: "Write a saved server's tools, resources and prompts as a JSON snapshot",
		Long: `Writes the server's tools, resources and prompts as one JSON snapshot (always
JSON), to stdout or to -o FILE, as served. The service exports every page of
each listing, keeping a tool's name, description, inputSchema and
outputSchema, a resource's uri, name, description and mimeType, and a prompt's
name, description and arguments, each as the MCP server sent it, numbers as
written. Compare two with "projectops diff".`,
		Args: exactArgs(0, ""),
		RunE: func(*cobra.Command, []string) error {
			if err := checkOutput("-o", out); err != nil {
				return err
			}
			c, project, err := a.projectClient()
			if err != nil {
				return err
			}
			snap, err := c.Servers.Export(a.ctx, project, server)
			if err != nil {
				return err
			}
			// The snapshot as served: fields go-sdk's types do not model
			// (a vendor keyword in a tool's inputSchema) and numbers as written (a float64 would
			// round 9007199254740993) survive, so diff sees them.
			var v any = snap
			if snap.Raw != nil {
				v = snap.Raw
			}
			var b bytes.Buffer
			if err := writeJSON(&b, v); err != nil {
				return err
			}
			return a.writeOutput(orDefault(out, stdoutPath), b.Bytes())
		},
	}
	cmd.Flags().StringVar(&server, "server", "", "saved server `id` (required)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the snapshot to `file` instead of stdout (- is stdout)")
	_ = cmd.MarkFlagRequired("server")
	return cmd
}

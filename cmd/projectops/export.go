package main

import (
	"bytes"
	"os"

	"github.com/spf13/cobra"
)

// newExportCmd writes a server's export snapshot (tools, resources,
// prompts) as JSON to stdout or -o, for committing and diffing in CI.
func newExportCmd(a *app) *cobra.Command {
	var server, out string
	cmd := &cobra.Command{
		Use:   "export --server ID [-o FILE]",
		Short: "Write a saved server's tools, resources and prompts as a JSON snapshot",
		Long: `Writes the server's tools, resources and prompts as one JSON snapshot (always
JSON), to stdout or to -o FILE. Compare two with "projectops diff".`,
		Args: exactArgs(0, ""),
		RunE: func(*cobra.Command, []string) error {
			c, project, err := a.projectClient()
			if err != nil {
				return err
			}
			snap, err := c.Servers.Export(a.ctx, project, server)
			if err != nil {
				return err
			}
			var b bytes.Buffer
			if err := writeJSON(&b, snap); err != nil {
				return err
			}
			if out == "" {
				_, err = a.stdout.Write(b.Bytes())
				return err
			}
			return os.WriteFile(out, b.Bytes(), 0o644)
		},
	}
	cmd.Flags().StringVar(&server, "server", "", "saved server `id` (required)")
	cmd.Flags().StringVarP(&out, "output", "o", "", "write the snapshot to `file` instead of stdout")
	_ = cmd.MarkFlagRequired("server")
	return cmd
}

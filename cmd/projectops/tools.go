package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/servers"
)

// newToolsCmd is "projectops tools list|call": a server's tools from a
// shell, JSON in and out.
func newToolsCmd(a *app) *cobra.Command {
	var server string
	cmd := group(&cobra.Command{
		Use:   "tools",
		Short: "List or call a saved server's tools (JSON in and out)",
		Long: `List a saved server's tools (a JSON array) or call one (the MCP CallToolResult).
Output is always JSON. A call whose result has isError exits 1.`,
	}, newToolsListCmd(a, &server), newToolsCallCmd(a, &server))
	cmd.PersistentFlags().StringVar(&server, "server", "", "saved server `id` (required)")
	_ = cmd.MarkPersistentFlagRequired("server")
	return cmd
}

func newToolsListCmd(a *app, server *string) *cobra.Command {
	return &cobra.Command{
		Use:   "list --server ID",
		Short: "Print every tool of the server as a JSON array",
		Args:  exactArgs(0, ""),
		RunE: func(*cobra.Command, []string) error {
			c, project, err := a.projectClient()
			if err != nil {
				return err
			}
			tools := []*mcp.Tool{}
			for t, err := range c.Servers.AllTools(a.ctx, project, *server, nil) {
				if err != nil {
					return err
				}
				tools = append(tools, t)
			}
			return writeJSON(a.stdout, tools)
		},
	}
}

func newToolsCallCmd(a *app, server *string) *cobra.Command {
	var name, arguments string
	cmd := &cobra.Command{
		Use:   "call --server ID TOOL [JSON|@FILE|-]",
		Short: "Call a tool and print its MCP CallToolResult (exit 1 when isError)",
		Long: `Calls a tool with a JSON object of arguments, given inline, in @FILE, or on
stdin with -. The tool and arguments may also be given as --name and --args.
Exit status: 0 success, 1 the result has isError, 2 bad usage or API error.`,
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 2 {
				return usagef("unexpected argument %q", args[2])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				if cmd.Flags().Changed("name") {
					return usagef("give the tool as an argument or as --name, not both")
				}
				name = args[0]
			}
			if len(args) > 1 {
				if cmd.Flags().Changed("args") {
					return usagef("give the arguments as an argument or as --args, not both")
				}
				arguments = args[1]
			}
			if name == "" {
				return usagef("missing the tool name")
			}
			params, err := readArguments(arguments)
			if err != nil {
				return usagef("arguments: %v", err)
			}
			c, project, err := a.projectClient()
			if err != nil {
				return err
			}
			res, err := c.Servers.CallTool(a.ctx, project, *server, servers.CallToolParams{ToolName: name, Parameters: params})
			if err != nil {
				return err
			}
			if err := writeJSON(a.stdout, res); err != nil {
				return err
			}
			if res.IsError {
				return gateError{fmt.Sprintf("tool %q reported an error (isError)", name)}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&name, "name", "", "tool `name`")
	cmd.Flags().StringVar(&arguments, "args", "{}", "tool arguments: a JSON object, @file, or - for stdin")
	return cmd
}

// readArguments parses tool arguments: a JSON object given inline, in
// @file, or on stdin with -.
func readArguments(v string) (map[string]any, error) {
	var data []byte
	var err error
	switch {
	case v == "-":
		data, err = io.ReadAll(stdin)
	case strings.HasPrefix(v, "@"):
		data, err = os.ReadFile(v[1:])
	default:
		data = []byte(v)
	}
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return nil, errors.New("want a JSON object of tool arguments")
	}
	return m, nil
}

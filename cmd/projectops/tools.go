package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"iter"
	"os"
	"strings"

	"github.com/spf13/cobra"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
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
	// Required by list and call, not by the group: "projectops tools help"
	// prints help, as "projectops env help" does.
	cmd.PersistentFlags().StringVar(&server, "server", "", "saved server `id` (required)")
	return cmd
}

// needServer refuses a missing --server, as a required flag would.
func needServer(server string) error {
	if server == "" {
		return usagef(`required flag(s) "server" not set`)
	}
	return nil
}

// suggestServer offers --server first while it is unset, as cobra does for
// a required flag.
func suggestServer(server *string) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		if *server == "" {
			return []string{"--server\tsaved server id (required)"}, cobra.ShellCompDirectiveNoFileComp
		}
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
}

func newToolsListCmd(a *app, server *string) *cobra.Command {
	return &cobra.Command{
		Use:               "list --server ID",
		Short:             "Print every tool of the server as a JSON array, as served",
		Args:              exactArgs(0, ""),
		ValidArgsFunction: suggestServer(server),
		RunE: func(*cobra.Command, []string) error {
			if err := needServer(*server); err != nil {
				return err
			}
			c, project, err := a.projectClient()
			if err != nil {
				return err
			}
			tools := []json.RawMessage{}
			for t, err := range toolsAsServed(a.ctx, c, project, *server) {
				if err != nil {
					return err
				}
				tools = append(tools, t)
			}
			return writeJSON(a.stdout, tools)
		},
	}
}

// toolsAsServed iterates over the server's tools as the service served
// them (fields go-sdk's mcp.Tool does not model, such as execution, and
// numbers as written), page by page like AllTools.
func toolsAsServed(ctx context.Context, c *projectops.Client, project, server string) iter.Seq2[json.RawMessage, error] {
	return pager.Seq(ctx, "", func(ctx context.Context, cursor string) (*shared.Page[json.RawMessage], error) {
		var meta option.Response
		page, err := c.Servers.ListTools(ctx, project, server, &servers.ListParams{Cursor: cursor}, option.WithResponseInto(&meta))
		if err != nil {
			return nil, err
		}
		var body struct {
			Items []json.RawMessage `json:"items"`
		}
		if json.Unmarshal(meta.Body, &body) != nil || len(body.Items) != len(page.Items) {
			// Not the body the typed page came from: go-sdk's encoding.
			body.Items = make([]json.RawMessage, len(page.Items))
			for i, t := range page.Items {
				if body.Items[i], err = json.Marshal(t); err != nil {
					return nil, err
				}
			}
		}
		return &shared.Page[json.RawMessage]{Items: body.Items, NextCursor: page.NextCursor}, nil
	})
}

func newToolsCallCmd(a *app, server *string) *cobra.Command {
	var name, arguments string
	cmd := &cobra.Command{
		Use:               "call --server ID TOOL [JSON|@FILE|-]",
		Short:             "Call a tool and print its MCP CallToolResult (exit 1 when isError)",
		ValidArgsFunction: suggestServer(server),
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
			if err := needServer(*server); err != nil {
				return err
			}
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
			params, err := readArguments(a.ctx, arguments)
			if err != nil {
				if a.ctx.Err() != nil {
					return err // interrupted while reading stdin
				}
				return usagef("arguments: %v", err)
			}
			c, project, err := a.projectClient()
			if err != nil {
				return err
			}
			var meta option.Response
			res, err := c.Servers.CallTool(a.ctx, project, *server, servers.CallToolParams{ToolName: name, Parameters: params},
				option.WithResponseInto(&meta))
			if err != nil {
				return err
			}
			// As served: go-sdk's CallToolResult drops fields it does not
			// model (a newer revision's, a vendor's) and turns numbers in
			// structuredContent into float64.
			var out any = res
			if json.Valid(meta.Body) {
				out = json.RawMessage(meta.Body)
			}
			if err := writeJSON(a.stdout, out); err != nil {
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
func readArguments(ctx context.Context, v string) (map[string]any, error) {
	var data []byte
	var err error
	switch {
	case v == "-":
		data, err = readStdin(ctx, 32<<20)
	case strings.HasPrefix(v, "@"):
		data, err = os.ReadFile(v[1:])
	default:
		data = []byte(v)
	}
	if err != nil {
		return nil, err
	}
	// Numbers as written (json.Number): through float64, an id past 2^53
	// would reach the tool as another number.
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil || m == nil {
		return nil, errors.New("want a JSON object of tool arguments")
	}
	if _, err := dec.Token(); err != io.EOF { // nothing after the object
		return nil, errors.New("want a JSON object of tool arguments")
	}
	return m, nil
}

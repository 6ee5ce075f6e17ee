package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/servers"
)

// runTools is "projectops tools list|call": a server's tools from a shell,
// JSON in and out.
func runTools(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := func() {
		fmt.Fprintln(stderr, "Usage:")
		fmt.Fprintln(stderr, "  projectops tools list --project P --server S")
		fmt.Fprintln(stderr, "  projectops tools call --project P --server S --name TOOL [--args JSON|@FILE|-]")
		fmt.Fprintln(stderr, "  projectops tools call --project P --server S TOOL [JSON|@FILE|-]")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "list prints every tool as a JSON array; call prints the MCP CallToolResult.")
		fmt.Fprintln(stderr, "Exit status: 0 success, 1 failure or a result with isError, 2 bad usage or no key.")
		fmt.Fprintln(stderr, "Uses PROJECTOPS_API_KEY and PROJECTOPS_BASE_URL.")
	}
	if len(args) == 0 {
		usage()
		return 2
	}
	switch args[0] {
	case "list":
		return toolsList(ctx, args[1:], stdout, stderr)
	case "call":
		return toolsCall(ctx, args[1:], stdout, stderr)
	case "-h", "-help", "--help", "help":
		usage()
		return 0
	}
	fmt.Fprintf(stderr, "projectops tools: unknown subcommand %q\n", args[0])
	usage()
	return 2
}

type toolFlags struct {
	fs              *flag.FlagSet
	project, server *string
	name, arguments *string
}

func parseToolFlags(name string, args []string, stderr io.Writer, call bool) (*toolFlags, int) {
	f := &toolFlags{fs: flag.NewFlagSet("projectops tools "+name, flag.ContinueOnError)}
	f.fs.SetOutput(stderr)
	f.project = f.fs.String("project", os.Getenv(envProject), "project `id` (default $"+envProject+")")
	f.server = f.fs.String("server", "", "saved server `id`")
	if call {
		f.name = f.fs.String("name", "", "tool `name`")
		f.arguments = f.fs.String("args", "{}", "tool arguments: a JSON object, @file, or - for stdin")
	}
	if err := f.fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, 0
		}
		return nil, 2
	}
	rest := f.fs.Args()
	if call {
		// Positional NAME [ARGS] read like the flags, for quick shell use.
		set := map[string]bool{}
		f.fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
		if len(rest) > 0 && !set["name"] {
			*f.name, rest = rest[0], rest[1:]
			if len(rest) > 0 && !set["args"] {
				*f.arguments, rest = rest[0], rest[1:]
			}
		}
	}
	need := map[string]string{"project": *f.project, "server": *f.server}
	if call {
		need["name"] = *f.name
	}
	if len(rest) > 0 {
		fmt.Fprintf(stderr, "projectops tools %s: unexpected argument %q\n", name, rest[0])
		return nil, 2
	}
	if !needFlags(stderr, f.fs.PrintDefaults, need) {
		return nil, 2
	}
	return f, -1
}

func toolsList(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, code := parseToolFlags("list", args, stderr, false)
	if f == nil {
		return code
	}
	c, err := apiClient()
	if err != nil {
		return failSetup(stderr, "tools list", err)
	}
	tools := []*mcp.Tool{}
	for t, err := range c.Servers.Tools(ctx, *f.project, *f.server) {
		if err != nil {
			return fail(stderr, "tools list", err)
		}
		tools = append(tools, t)
	}
	if err := writeJSON(stdout, tools); err != nil {
		return fail(stderr, "tools list", err)
	}
	return 0
}

func toolsCall(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	f, code := parseToolFlags("call", args, stderr, true)
	if f == nil {
		return code
	}
	params, err := readArguments(*f.arguments)
	if err != nil {
		fmt.Fprintf(stderr, "projectops tools call: --args: %v\n", errText(err))
		return 2
	}
	c, err := apiClient()
	if err != nil {
		return failSetup(stderr, "tools call", err)
	}
	res, err := c.Servers.CallTool(ctx, *f.project, *f.server, servers.CallToolParams{ToolName: *f.name, Parameters: params})
	if err != nil {
		return fail(stderr, "tools call", err)
	}
	if err := writeJSON(stdout, res); err != nil {
		return fail(stderr, "tools call", err)
	}
	if res.IsError {
		fmt.Fprintf(stderr, "projectops tools call: tool %q reported an error (isError)\n", *f.name)
		return 1
	}
	return 0
}

// readArguments parses --args: a JSON object given inline, in @file, or on
// stdin with -.
func readArguments(v string) (map[string]any, error) {
	var data []byte
	var err error
	switch {
	case v == "-":
		data, err = io.ReadAll(os.Stdin)
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

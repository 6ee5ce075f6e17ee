package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"time"

	"github.com/projectops/projectops-go/tunnels"
)

// runTunnel exposes a local MCP server through a relay tunnel until
// interrupted. The public URL is printed once, with a warning: it carries
// the tunnel's secret. Nothing else ever prints it.
func runTunnel(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("projectops tunnel", flag.ContinueOnError)
	fs.SetOutput(stderr)
	project := fs.String("project", os.Getenv(envProject), "project `id` (default $"+envProject+")")
	name := fs.String("name", "", "server `name` to register the tunnel as (created if missing, repointed if it exists)")
	to := fs.String("to", "", "local MCP server `URL`, e.g. http://127.0.0.1:3000/mcp")
	verbose := fs.Bool("v", false, "log connects, drops and reconnects to stderr")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: projectops tunnel --project P --name NAME --to URL")
		fmt.Fprintln(stderr)
		fmt.Fprintln(stderr, "Exposes a local MCP server through a relay tunnel until interrupted, registered as")
		fmt.Fprintln(stderr, "the project's server NAME. Every start rotates the tunnel's secret.")
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
		fmt.Fprintf(stderr, "projectops tunnel: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if !needFlags(stderr, fs.Usage, map[string]string{"project": *project, "name": *name, "to": *to}) {
		return 2
	}
	target, err := url.Parse(*to)
	if err != nil {
		fmt.Fprintf(stderr, "projectops tunnel: --to: %v\n", errText(err))
		return 2
	}
	proxy, err := tunnels.ProxyTo(target)
	if err != nil {
		fmt.Fprintf(stderr, "projectops tunnel: --to: %v\n", errText(err))
		return 2
	}
	c, err := apiClient()
	if err != nil {
		return failSetup(stderr, "tunnel", err)
	}
	g, err := c.Tunnels.Create(ctx, *project, tunnels.CreateParams{Name: *name})
	if err != nil {
		return fail(stderr, "tunnel", err)
	}
	opts := []tunnels.ServeOption{tunnels.OnConnect(func() {
		fmt.Fprintf(stderr, "tunnel connected: server %s (%s) -> %s\n", g.ServerID, g.Name, target.Redacted())
	})}
	if *verbose {
		opts = append(opts, tunnels.WithLogger(slog.New(slog.NewTextHandler(stderr, nil))))
	}
	fmt.Fprintf(stdout, "%s\n", g.URL)
	fmt.Fprintln(stderr, "WARNING: the URL above contains the tunnel's secret (?k=): anyone holding it can call your server.")
	fmt.Fprintln(stderr, "It is also saved as the server's url. Stop with Ctrl-C; run again to rotate the secret.")
	err = c.Tunnels.Serve(ctx, g, proxy, opts...)
	if ctx.Err() != nil {
		// Interrupted: revoke so the URL dies with the process.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), closeTimeout)
		defer cancel()
		if _, cerr := c.Tunnels.Close(cctx, *project, g.ServerID); cerr != nil {
			return fail(stderr, "tunnel", fmt.Errorf("closing the tunnel: %w", cerr))
		}
		fmt.Fprintln(stderr, "tunnel closed")
		return 0
	}
	return fail(stderr, "tunnel", err)
}

// closeTimeout bounds the revoke sent on interrupt.
const closeTimeout = 10 * time.Second

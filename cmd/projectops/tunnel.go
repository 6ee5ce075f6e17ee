package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/tunnels"
)

// closeTimeout bounds the revoke sent on interrupt.
const closeTimeout = 10 * time.Second

// newTunnelCmd exposes a local MCP server through a relay tunnel until
// interrupted. The public URL is printed once, with a warning: it carries
// the tunnel's secret. Nothing else ever prints it.
func newTunnelCmd(a *app) *cobra.Command {
	var name, to string
	cmd := &cobra.Command{
		Use:   "tunnel --name NAME --to URL",
		Short: "Expose a local MCP server through a relay tunnel until interrupted",
		Long: `Exposes a local MCP server through a relay tunnel until interrupted, registered as
the project's server NAME (created if missing, repointed if it exists). Every
start rotates the tunnel's secret. The public URL (with its secret) is printed
on stdout once; with --json, as {"serverId", "name", "url"}. -v logs connects,
drops and reconnects.`,
		Args: exactArgs(0, ""),
		RunE: func(*cobra.Command, []string) error { return a.tunnel(name, to) },
	}
	cmd.Flags().StringVar(&name, "name", "", "server `name` to register the tunnel as (required)")
	cmd.Flags().StringVar(&to, "to", "", "local MCP server `URL`, e.g. http://127.0.0.1:3000/mcp (required)")
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("to")
	return cmd
}

func (a *app) tunnel(name, to string) error {
	if wire.TrimJS(name) == "" { // the service refuses it (trimmed as JavaScript trims); say so before any request
		return usagef("--name must not be empty")
	}
	project, err := a.needProject()
	if err != nil {
		return err
	}
	// The value is never echoed whole: it may carry credentials or a
	// token in its query, which the status line hides too.
	const want = "want an absolute http or https URL, e.g. http://127.0.0.1:3000/mcp"
	target, err := url.Parse(to)
	if err != nil {
		return usagef("--to: not a URL: %s", want)
	}
	if target.Opaque != "" || target.Host == "" {
		// "user:pass@host/…" with the scheme forgotten (the "scheme" is the
		// user), or "http//…" / "http:/…" (no host: it is all path): what
		// would be shown may hold the credentials.
		return usagef("--to: %s", want)
	}
	if (target.Scheme != "http" && target.Scheme != "https") || target.Host == "" {
		return usagef("--to %s: %s", shownTarget(target), want)
	}
	if p := target.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return usagef("--to %s: port %s is not between 1 and 65535", shownTarget(target), p)
		}
	}
	proxy, err := tunnels.ProxyTo(target)
	if err != nil {
		return usagef("--to: %v", err)
	}
	c, err := a.client()
	if err != nil {
		return err
	}
	g, err := c.Tunnels.Create(a.ctx, project, tunnels.CreateParams{Name: name})
	if err != nil {
		return err
	}
	opts := []tunnels.ServeOption{tunnels.OnConnect(func() {
		fmt.Fprintf(a.stderr, "tunnel connected: server %s (%s) -> %s\n", g.ServerID, g.Name, shownTarget(target))
	})}
	if a.verbose {
		opts = append(opts, tunnels.WithLogger(a.logger()))
	}
	if err := a.print(struct {
		ServerID string `json:"serverId"`
		Name     string `json:"name"`
		URL      string `json:"url"`
	}{g.ServerID, g.Name, g.URL}, func(w io.Writer) { fmt.Fprintln(w, g.URL) }); err != nil {
		return err
	}
	fmt.Fprintln(a.stderr, "WARNING: the URL above contains the tunnel's secret (?k=): anyone holding it can call your server.")
	fmt.Fprintln(a.stderr, "It is also saved as the server's url. Stop with Ctrl-C; run again to rotate the secret.")
	err = c.Tunnels.Serve(a.ctx, g, proxy, opts...)
	if a.ctx.Err() == nil {
		return err
	}
	// Interrupted: revoke so the URL dies with the process.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), closeTimeout)
	defer cancel()
	if _, cerr := c.Tunnels.Close(cctx, project, g.ServerID); cerr != nil {
		return fmt.Errorf("closing the tunnel: %w", cerr)
	}
	fmt.Fprintln(a.stderr, "tunnel closed")
	return nil
}

// shownTarget is the local URL as the tunnel line prints it: without its
// userinfo, query and fragment, any of which may hold a token.
func shownTarget(u *url.URL) string {
	v := *u
	v.User, v.RawQuery, v.ForceQuery, v.Fragment, v.RawFragment = nil, "", false, "", ""
	if u.RawQuery != "" || u.Fragment != "" {
		return v.String() + "?…"
	}
	return v.String()
}

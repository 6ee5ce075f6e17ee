package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

// closeTimeout bounds the revoke sent on interrupt.
const closeTimeout = 10 * time.Second

// newTunnelCmd exposes a local MCP server through a relay tunnel until
// interrupted. The public URL is printed on stdout, with a warning: it
// carries the tunnel's secret. It is printed again only when Serve renews
// the grant (its secret rotates); nothing else ever prints it.
func newTunnelCmd(a *app) *cobra.Command {
	var name, to string
	var replace bool
	cmd := &cobra.Command{
		Use:   "tunnel --name NAME --to URL",
		Short: "Expose a local MCP server through a relay tunnel until interrupted",
		Long: `Exposes a local MCP server through a relay tunnel until interrupted, registered
as the project's server NAME: created if missing; a tunnel of that name is
reused; a server of that name that is not a tunnel is repointed (its url
overwritten, not restored when the tunnel closes) only with --replace. Every
start rotates the tunnel's secret. The public URL (with its secret) is printed
on stdout; with --json, as {"serverId", "name", "url"} on one line, for a
script to read with one readline while the tunnel runs. The relay's connect
token expires after an hour: a reconnect after that renews the tunnel's grant,
which rotates its secret, and the new URL is printed on stdout the same way
(the old one is dead). It renews only when the token has expired on the
service's clock (by the Date of its answer, this host's clock without one; a
Date more than two hours from this host's clock ends the command, asking to
check the clock), the server still has its name, and its url was not rotated by
another start: a tunnel another host took over, or one closed before its token
expired, while this one was offline, is not renewed, and the command exits with
an error, as it does when the server was renamed or deleted since. A tunnel
closed while this one was offline past its token's expiry cannot be told from
an expired one: it is renewed (revived), as the service's own agent does. As
that agent does too, once connected it reconnects after a drop for as long as
it runs, however long the network is down; when no session has come up within
its first five minutes (the relay unreachable, or never saying hello), the
command ends with an error saying so. Drops, failed attempts to connect (the
relay unreachable or silent) or to renew, reconnects, renewals, and calls the
local server did not answer, are said on stderr; -v logs more. Interrupted, it
revokes the tunnel and exits 0, with a warning on stderr if revoking failed.`,
		Args: exactArgs(0, ""),
		RunE: func(*cobra.Command, []string) error { return a.tunnel(name, to, replace) },
	}
	cmd.Flags().StringVar(&name, "name", "", "server `name` to register the tunnel as (required)")
	cmd.Flags().StringVar(&to, "to", "", "local MCP server `URL`, e.g. http://127.0.0.1:3000/mcp (required)")
	cmd.Flags().BoolVar(&replace, "replace", false, "repoint server NAME at the tunnel even when it is not one (its url is overwritten)")
	_ = cmd.MarkFlagRequired("name")
	_ = cmd.MarkFlagRequired("to")
	return cmd
}

func (a *app) tunnel(name, to string, replace bool) error {
	// Its lines carry what the service stores (a server's name, an error
	// message): their control characters are escaped (see printable).
	stderr := printableWriter{a.stderr}
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
	proxy, err := tunnels.ProxyTo(target, tunnels.OnUnanswered(unansweredNotice(stderr, shownTarget(target))))
	if err != nil {
		return usagef("--to: %v", err)
	}
	c, err := a.client()
	if err != nil {
		return err
	}
	if !replace {
		// Creating repoints a server of that name, whatever it was (one
		// typo would overwrite a real server's url for good): the first
		// in the service's listing whose name is the trimmed NAME exactly.
		for s, err := range c.Servers.All(a.ctx, project, nil) {
			if err != nil {
				return err
			}
			if s.Name != wire.TrimJS(name) {
				continue
			}
			if !isTunnel(s) {
				return usagef("server %q (%s) exists and is not a tunnel: --replace repoints it at the tunnel "+
					"(its url is overwritten, and not restored when the tunnel closes)", s.Name, s.ID)
			}
			break
		}
	}
	g, err := c.Tunnels.Create(a.ctx, project, tunnels.CreateParams{Name: name})
	if err != nil {
		return err
	}
	if g.PreviousTransportType == servers.TransportStdio || g.PreviousURL != "" && !isTunnelURL(g.PreviousURL, g.ServerID) {
		was := g.PreviousTransportType
		if u, err := url.Parse(g.PreviousURL); err == nil && g.PreviousURL != "" && u.Opaque == "" && u.Host != "" {
			was = shownTarget(u) // else it may be "user:pass@host" with no scheme: not shown
		}
		fmt.Fprintf(stderr, "tunnel: server %s (%s) was %s; it now points at the tunnel\n", maskedField(g.ServerID), maskedField(g.Name), printableField(string(was)))
	}
	opts := []tunnels.ServeOption{tunnels.OnConnect(func() {
		fmt.Fprintf(stderr, "tunnel connected: server %s (%s) -> %s\n", maskedField(g.ServerID), maskedField(g.Name), shownTarget(target))
	}), tunnels.OnDisconnect(disconnectNotice(a.ctx, stderr)), tunnels.OnConnectError(connectErrorNotice(stderr))}
	if a.verbose {
		opts = append(opts, tunnels.WithLogger(a.logger()))
	}
	if err := a.printTunnelURL(g); err != nil {
		return err
	}
	fmt.Fprintln(stderr, "WARNING: the URL above contains the tunnel's secret (?k=): anyone holding it can call your server.")
	fmt.Fprintln(stderr, "It is also saved as the server's url. Stop with Ctrl-C; run again to rotate the secret.")
	shown := g.URL
	opts = append(opts, tunnels.OnGrant(func(ng *tunnels.Grant) {
		fmt.Fprintf(stderr, "tunnel: the connect token expired: renewed the grant of server %s (%s); its secret rotated\n",
			maskedField(ng.ServerID), maskedField(ng.Name))
		if ng.URL == shown {
			return
		}
		shown = ng.URL
		if err := a.printTunnelURL(ng); err != nil {
			fmt.Fprintf(stderr, "tunnel: could not print the new URL: %v\n", printableField(errText(err)))
			return
		}
		fmt.Fprintln(stderr, "The new URL is on stdout (it contains the tunnel's new secret); the old one no longer works.")
	}))
	err = c.Tunnels.Serve(a.ctx, g, proxy, opts...)
	if a.ctx.Err() == nil {
		return err
	}
	// Interrupted: revoke so the URL dies with the process. Stopping was
	// asked for and done: a revoke that fails is a warning, as the
	// service's agent gives it, not a failed command.
	cctx, cancel := context.WithTimeout(context.WithoutCancel(a.ctx), closeTimeout)
	defer cancel()
	if _, cerr := c.Tunnels.Close(cctx, project, g.ServerID); cerr != nil {
		fmt.Fprintf(stderr, "WARNING: could not close the tunnel: %v; its URL, served by nothing now, stays valid "+
			"until the tunnel is started again\n", printableField(errText(cerr)))
		return nil
	}
	fmt.Fprintln(stderr, "tunnel closed")
	return nil
}

// disconnectNotice says on stderr why a live session ended, and that the
// command reconnects only when it does: a revoked or replaced tunnel ends
// it, and a refused connect token is renewed (OnGrant's line says so) or
// ends it, which Serve decides after this is said.
func disconnectNotice(ctx context.Context, stderr io.Writer) func(error) {
	return func(cause error) {
		switch {
		case ctx.Err() != nil: // stopping, as asked
		case errors.Is(cause, tunnels.ErrRevoked), errors.Is(cause, tunnels.ErrReplaced),
			errors.Is(cause, tunnels.ErrTokenRejected):
			fmt.Fprintf(stderr, "tunnel disconnected (%v)\n", printableField(errText(cause)))
		default:
			fmt.Fprintf(stderr, "tunnel disconnected (%v); reconnecting\n", printableField(errText(cause)))
		}
	}
}

// connectErrorNotice says on stderr each attempt to connect that failed
// and is retried: a tunnel started while the relay is down (or a long
// outage's redials, or renewals that keep failing) is otherwise silent
// until interrupted. The cause says what failed: the relay, or the
// renewal's API call.
func connectErrorNotice(stderr io.Writer) func(error, time.Duration) {
	return func(cause error, in time.Duration) {
		fmt.Fprintf(stderr, "tunnel: could not connect (%v); retrying in %s\n",
			printableField(errText(cause)), in.Round(time.Millisecond))
	}
}

// printTunnelURL prints g's public URL, secret included, on stdout: as a
// line, or with --json as {"serverId", "name", "url"} on one line.
func (a *app) printTunnelURL(g *tunnels.Grant) error {
	if a.json {
		return writeJSONLine(a.stdout, struct {
			ServerID string `json:"serverId"`
			Name     string `json:"name"`
			URL      string `json:"url"`
		}{g.ServerID, g.Name, g.URL})
	}
	return a.text(func(w io.Writer) { fmt.Fprintln(w, g.URL) })
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

// isTunnel reports whether a saved server is a tunnel's record: its url
// is a tunnel URL of its own id.
func isTunnel(s servers.Server) bool {
	return s.TransportType == servers.TransportHTTP && isTunnelURL(s.URL, s.ID)
}

// isTunnelURL reports whether raw is a public tunnel URL of serverID:
// its path ends in the service's adapter path for that server.
func isTunnelURL(raw, serverID string) bool {
	u, err := url.Parse(raw)
	return err == nil && strings.HasSuffix(u.Path, "/api/mcp/adapter-http/"+serverID)
}

// unansweredNotice says on stderr, at most once in unansweredEvery, that
// the local server did not answer a call: without it a dead --to shows
// only as 502s on the callers' side.
func unansweredNotice(stderr io.Writer, target string) func(*http.Request, error) {
	var last atomic.Int64
	return func(_ *http.Request, err error) {
		now := time.Now().UnixNano()
		if prev := last.Load(); now-prev >= int64(unansweredEvery) && last.CompareAndSwap(prev, now) {
			fmt.Fprintf(stderr, "tunnel: the local server at %s did not answer a call (502 to the caller): %v\n", target, printableField(errText(err)))
		}
	}
}

// unansweredEvery spaces unansweredNotice's lines.
const unansweredEvery = 5 * time.Second

package main

import (
	"fmt"
	"io"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/projectops/projectops-go/projectopstest"
)

type serveFlags struct {
	addr, seed           string
	perMinute, burst     int
	buildStep, stepDelay time.Duration
	maxRuns              int
	origins              []string
	poolSessions         bool
	control              bool
}

// newServeCmd runs the in-memory double on --addr, seeded from --seed or
// with the demo workspace, prints the base URL and the usable API keys, and
// serves until interrupted (SIGINT or SIGTERM in main, which exit 0).
func newServeCmd(a *app) *cobra.Command {
	var f serveFlags
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Run the in-memory API double on a local address",
		Long: `Runs the Project Operations API double (an in-memory fake of the whole API, with
its rules) for any client. It prints the base URL and the seed's API keys, then
serves until interrupted. With --json they are one JSON object on one line of
stdout, {"baseUrl": ..., "apiKeys": [{"role", "userId", "key"}]}, so a script
reads it with one readline while the double runs.

--control also serves the test hooks over HTTP, outside /api/v1, for a test
suite in any language: GET <controlUrl>/routes; GET, POST and DELETE
<controlUrl>/faults (POST {"route": "GET /me", "fault": {"status": 503,
"retryAfterMs": 2000, "times": 1}}; also code, message, details, latencyMs,
drop, afterRoute, every); GET and DELETE <controlUrl>/requests (the request
log, keys redacted); POST <controlUrl>/wait (until background work such as
eval runs is done). The control URL is printed too ("controlUrl" with --json).
Control requests need no key: enable it only on an address no one else
reaches (a warning on stderr says so when --addr is not a loopback address).
DELETE <controlUrl>/faults?route=GET%20/me clears one route's fault. The control
API is for test suites and curl, not browsers: a request whose Origin is not an
--allow-origin is refused 403, and a page on a listed origin can send only
simple requests (GET, POST text/plain) whose answers it cannot read (no CORS
headers; a preflight is 405). On a loopback --addr a control request whose Host
is not localhost, 127.0.0.0/8 or [::1] is refused 403 (DNS rebinding); on
another address any Host is taken.`,
		Args: exactArgs(0, ""),
		RunE: func(cmd *cobra.Command, _ []string) error { return a.serve(cmd.CommandPath(), f) },
	}
	fl := cmd.Flags()
	fl.StringVar(&f.addr, "addr", "127.0.0.1:8080", "`host:port` to listen on (port 0 picks a free port)")
	fl.StringVar(&f.seed, "seed", "", "seed `file` (JSON, see projectopstest.Seed); default: the demo workspace")
	fl.IntVar(&f.perMinute, "rate-limit", projectopstest.DefaultRatePerMinute, "requests per minute per API key; 0 disables")
	fl.IntVar(&f.burst, "burst", projectopstest.DefaultRateBurst, "rate-limit burst per API key")
	fl.DurationVar(&f.buildStep, "build-step-delay", 300*time.Millisecond, "real time each environment build step takes")
	fl.DurationVar(&f.stepDelay, "step-delay", 0, "real time each eval step and prompt takes (0: as fast as they go)")
	fl.IntVar(&f.maxRuns, "max-runs", 0, "keep at most `n` eval runs, dropping the oldest finished ones, and release an uploaded artifact once no kept run names it (one never named, an hour after upload) (0 keeps all)")
	fl.BoolVar(&f.poolSessions, "pool-mcp-sessions", false,
		"keep each saved server's MCP session across requests (faster; per-session server state then survives, which the service never keeps)")
	fl.StringArrayVar(&f.origins, "allow-origin", nil,
		"a browser `origin` (scheme://host[:port]) the API serves; repeat for more (default: none, as for any app but the service's own)")
	fl.BoolVar(&f.control, "control", false,
		"also serve the control API (faults, the request log, wait) under /_projectops, without a key: for tests on loopback")
	return cmd
}

func (a *app) serve(path string, f serveFlags) error {
	seed := projectopstest.DemoSeed()
	if f.seed != "" {
		var err error
		if seed, err = projectopstest.LoadSeed(f.seed); err != nil {
			return err // a data error, not a usage one: exit 2 without --help
		}
	}
	// -v logs every request (never keys or bodies).
	opts := []projectopstest.Option{projectopstest.WithSeed(seed), projectopstest.WithLogger(a.logger()),
		projectopstest.WithRateLimit(f.perMinute, f.burst), projectopstest.WithBuildStepDelay(f.buildStep),
		projectopstest.WithMaxRuns(f.maxRuns), projectopstest.WithEvalStepDelay(f.stepDelay),
		projectopstest.WithAllowedOrigins(f.origins...)}
	if f.poolSessions {
		opts = append(opts, projectopstest.WithPooledMCPSessions())
	}
	if f.control {
		opts = append(opts, projectopstest.WithControlAPI())
	}
	srv, err := projectopstest.NewServer(opts...)
	if err != nil {
		return err // the seed's content: a data error, exit 2 without --help
	}
	base, err := srv.StartAt(f.addr)
	if err != nil {
		_ = srv.Close()
		return fmt.Errorf("listen: %w", err)
	}
	if f.control && !loopbackAddr(f.addr) {
		notef(a.stderr, path, "warning: --control on %s, not a loopback address: whoever reaches it can set faults and read the request log, with no key", f.addr)
	}
	keys := usableKeys(seed)
	if a.json {
		if keys == nil {
			keys = []servedKeys{} // an array always, as docs/double.md shows it
		}
		if err := writeJSONLine(a.stdout, struct {
			BaseURL    string       `json:"baseUrl"`
			APIKeys    []servedKeys `json:"apiKeys"`
			ControlURL string       `json:"controlUrl,omitempty"` // only with --control
		}{base, keys, srv.ControlURL()}); err != nil {
			return err
		}
	} else {
		notef(a.stdout, path, "serving the API double at %s", base)
		if f.control {
			notef(a.stdout, path, "control API (no key needed) at %s", srv.ControlURL())
		}
		printKeys(a.stdout, keys)
	}
	fmt.Fprintln(a.stderr, "Press Ctrl-C to stop.")

	<-a.ctx.Done()
	if err := srv.Close(); err != nil {
		return fmt.Errorf("shutdown: %w", err)
	}
	notef(a.stderr, path, "stopped")
	return nil
}

// loopbackAddr reports whether addr (host:port) listens on loopback only:
// localhost or a loopback IP. An empty host listens on every interface.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// servedKeys is one usable key of the seed. Printing keys is the point: a
// standalone double is only reachable with them.
type servedKeys struct {
	Role   projectopstest.Role `json:"role"`
	UserID string              `json:"userId"`
	Key    string              `json:"key"`
}

func usableKeys(seed *projectopstest.Seed) []servedKeys {
	roles := map[string]projectopstest.Role{}
	for _, u := range seed.Users {
		roles[u.ID] = u.Role
	}
	var out []servedKeys
	for _, k := range seed.APIKeys {
		if !k.Revoked && !k.Orphaned {
			out = append(out, servedKeys{roles[k.UserID], k.UserID, string(k.Secret)})
		}
	}
	return out
}

func printKeys(w io.Writer, keys []servedKeys) {
	fmt.Fprintln(w, "API keys (send as Authorization: Bearer <key>):")
	for _, k := range keys {
		fmt.Fprintf(w, "  %-10s %-14s %s\n", k.Role, k.UserID, k.Key)
	}
}

package main

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// cutProxy is a TCP proxy in front of the double whose connections a test
// can cut at once, as a network drop (a laptop's Wi-Fi) would.
type cutProxy struct {
	ln    net.Listener
	mu    sync.Mutex
	conns []net.Conn
	down  bool // connections are closed as they come: the network is down
}

func newCutProxy(t *testing.T, backend string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			p.mu.Lock()
			down := p.down
			p.mu.Unlock()
			if down {
				c.Close()
				continue
			}
			b, err := net.Dial("tcp", backend)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			p.conns = append(p.conns, c, b)
			p.mu.Unlock()
			go func() { _, _ = io.Copy(b, c); b.Close() }()
			go func() { _, _ = io.Copy(c, b); c.Close() }()
		}
	}()
	t.Cleanup(func() { ln.Close(); p.cut() })
	return p
}

// setDown takes the network down (cutting what is open) or brings it
// back.
func (p *cutProxy) setDown(down bool) {
	p.mu.Lock()
	p.down = down
	p.mu.Unlock()
	if down {
		p.cut()
	}
}

func (p *cutProxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range p.conns {
		c.Close()
	}
	p.conns = nil
}

// demoBehindCut starts the demo double on a listener, its clock at the
// host's (WithClock also dates its answers, by which the command judges
// expiry), behind a cutProxy, and points the command at it.
func demoBehindCut(t *testing.T) (*projectopstest.Server, *projectopstest.Clock, *cutProxy) {
	t.Helper()
	clk := projectopstest.NewClock(time.Now())
	srv := projectopstest.NewTestServer(t, projectopstest.WithSeed(projectopstest.DemoSeed()),
		projectopstest.WithRateLimit(0, 0), projectopstest.WithClock(clk.Now))
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	bu, _ := url.Parse(base)
	px := newCutProxy(t, bu.Host)
	bu.Host = px.ln.Addr().String()
	t.Setenv("PROJECTOPS_BASE_URL", bu.String())
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	return srv, clk, px
}

// A network drop after the connect token's hour does not end the tunnel:
// the relay refuses the expired token (close 4000), and the command
// renews the grant and reconnects, as the service's agent does, printing
// the new URL (its secret rotated) on stdout, and on stdout alone. The
// double's clock starts at the host's and its Date follows it:
// the token has expired only once the clock is moved on two hours, so the
// renewal depends on the command judging that expiry.
func TestTunnelCommandRenewsExpiredTokenAfterDrop(t *testing.T) {
	_, clk, px := demoBehindCut(t)

	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer local.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"tunnel", "--project", "prj_demo", "--name", "laptop", "--to", local.URL + "/mcp"}, &stdout, &stderr)
	}()
	waitFor := func(what string, ok func() bool) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !ok() {
			select {
			case code := <-done:
				t.Fatalf("%s: the tunnel command exited %d; stderr:\n%s", what, code, stderr.String())
			default:
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: timed out; stderr:\n%s", what, stderr.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("first connect", func() bool { return strings.Count(stderr.String(), "tunnel connected") >= 1 })

	// Two hours on: the connect token has expired (the live session is not
	// cut), then the network drops.
	clk.Advance(2 * time.Hour)
	px.cut()

	waitFor("reconnect after the drop", func() bool { return strings.Count(stderr.String(), "tunnel connected") >= 2 })
	urls := strings.Fields(stdout.String())
	if len(urls) != 2 || urls[0] == urls[1] || !strings.Contains(stderr.String(), "renewed the grant") {
		t.Fatalf("stdout %q, want the first URL and the renewed one; stderr:\n%s", urls, stderr.String())
	}
	for i, want := range []int{http.StatusNotFound, http.StatusOK} { // the old URL is dead, the new one served
		resp, err := http.Get(urls[i])
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("URL %d: %d, want %d", i+1, resp.StatusCode, want)
		}
	}
	for _, u := range urls {
		if k := u[strings.Index(u, "?k=")+3:]; strings.Contains(stderr.String(), k) {
			t.Errorf("stderr shows a secret:\n%s", stderr.String())
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("tunnel did not stop on interrupt")
	}
}

// A tunnel closed through the API while the command was offline stays
// closed: back online, the relay refuses the revoked token (close 4000),
// which had not expired, so the command exits 2 (an error) saying so, neither
// renewing the grant nor claiming the token expired. The double's clock
// starts at the host's, and its Date, by which the command judges expiry,
// follows it.
func TestTunnelCommandExitsWhenClosedWhileOffline(t *testing.T) {
	srv, _, px := demoBehindCut(t)

	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(t.Context(), []string{"tunnel", "--project", "prj_demo", "--name", "laptop", "--to", "http://127.0.0.1:1/mcp"}, &stdout, &stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "tunnel connected") {
		if time.Now().After(deadline) {
			t.Fatalf("never connected; stderr:\n%s", stderr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	px.setDown(true)
	c, err := srv.NewClient(option.WithAPIKey(projectopstest.DemoOwnerKey))
	if err != nil {
		t.Fatal(err)
	}
	sid := strings.TrimSpace(stdout.String())
	sid = sid[strings.LastIndex(sid, "/")+1 : strings.Index(sid, "?")]
	if _, err := c.Tunnels.Close(t.Context(), "prj_demo", sid); err != nil {
		t.Fatal(err)
	}
	px.setDown(false)
	select {
	case code := <-done:
		out := stderr.String()
		if code != 2 || !strings.Contains(out, "had not expired") || strings.Contains(out, "expired: renewed") {
			t.Errorf("exit %d; stderr:\n%s\nwant exit 2 saying the token had not expired, and no renewal", code, out)
		}
		if n := len(strings.Fields(stdout.String())); n != 1 {
			t.Errorf("stdout %q: want the first URL alone", stdout.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatalf("the command did not exit; stderr:\n%s", stderr.String())
	}
}

// A live session's end is said on stderr with "reconnecting" only when
// the command does reconnect: a revoked or replaced tunnel ends it, and a
// refused token is either renewed (said by its own line) or ends it.
func TestTunnelDisconnectNotice(t *testing.T) {
	var b strings.Builder
	say := disconnectNotice(context.Background(), &b)
	for _, c := range []struct {
		cause        error
		reconnecting bool
	}{{tunnels.ErrTokenRejected, false}, {tunnels.ErrRevoked, false}, {tunnels.ErrReplaced, false},
		{errors.New("connection reset"), true}} {
		b.Reset()
		say(c.cause)
		if got := strings.Contains(b.String(), "reconnecting"); got != c.reconnecting || !strings.HasPrefix(b.String(), "tunnel disconnected") {
			t.Errorf("%v: said %q; want reconnecting said: %v", c.cause, b.String(), c.reconnecting)
		}
	}
}

// A failed attempt to connect is said on stderr with the wait before the
// next, its cause printable on one line: a tunnel started while the relay
// is down said nothing until interrupted. A failed renewal is said so too,
// and the line does not call it the relay's: the cause says what failed.
func TestTunnelConnectErrorNotice(t *testing.T) {
	for _, tc := range []struct{ cause, want string }{
		{"tunnels: timed out waiting for the relay's hello after 15s\n\x1b[2J",
			`tunnel: could not connect (tunnels: timed out waiting for the relay's hello after 15s\n\x1b[2J); retrying in 1.235s` + "\n"},
		{"tunnels: renewing the grant of server srv_1: 503 Service Unavailable",
			"tunnel: could not connect (tunnels: renewing the grant of server srv_1: 503 Service Unavailable); retrying in 1.235s\n"},
	} {
		var b strings.Builder
		connectErrorNotice(&b)(errors.New(tc.cause), 1234567*time.Microsecond)
		if b.String() != tc.want {
			t.Errorf("said %q, want %q", b.String(), tc.want)
		}
	}
}

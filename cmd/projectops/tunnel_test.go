package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

func TestTunnelCommand(t *testing.T) {
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		io.WriteString(w, r.Method+" "+r.URL.RequestURI()+" "+string(b))
	}))
	defer local.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stdout, stderr, done := runTunnel(t, ctx, local.URL+"/mcp?x=1&tok=LOCALTOKEN")
	publicURL := strings.TrimSpace(stdout.String())
	k := publicURL[strings.Index(publicURL, "?k=")+3:]
	resp, err := http.Post(publicURL, "application/json", strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(b) != `POST /mcp?x=1&tok=LOCALTOKEN {"a":1}` {
		t.Fatalf("through the tunnel: %d %q", resp.StatusCode, b)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tunnel did not stop on interrupt")
	}
	if !strings.Contains(stderr.String(), "WARNING") || !strings.Contains(stderr.String(), "tunnel closed") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	// The local URL's query may hold a token too: the line that names it
	// leaves it out.
	if strings.Contains(stderr.String(), "LOCALTOKEN") || !strings.Contains(stderr.String(), "/mcp?…") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), k) || strings.Count(stdout.String(), k) != 1 {
		t.Errorf("the secret was printed more than once:\n%s\n%s", stdout.String(), stderr.String())
	}
	// Interrupting revoked the tunnel.
	resp, err = http.Get(publicURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("after exit: %d", resp.StatusCode)
	}
}

func TestTunnelCommandUsage(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	for _, args := range [][]string{
		{"tunnel"}, {"tunnel", "--project", "p", "--name", "n"},
		{"tunnel", "--project", "p", "--name", "n", "--to", "127.0.0.1:3000"},
		{"tunnel", "--project", "p", "--name", "n", "--to", "http://x/mcp", "extra"},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// startTunnel runs the tunnel command until it says it is connected and
// returns its public URL, its stderr and a stop that interrupts it and
// returns its exit code.
func startTunnel(t *testing.T, args ...string) (publicURL string, stderr *lockedBuffer, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	var stdout lockedBuffer
	stderr = &lockedBuffer{}
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"tunnel", "--project", "prj_demo"}, args...), &stdout, stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "tunnel connected") {
		select {
		case code := <-done:
			cancel()
			t.Fatalf("tunnel %v exited %d; stderr:\n%s", args, code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("not connected; stderr:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return strings.TrimSpace(stdout.String()), stderr, func() int { cancel(); return <-done }
}

// A server of the name that is not a tunnel is repointed only with
// --replace (creating the tunnel overwrites its url for good), which says
// what it was; a tunnel of the name is reused without it.
func TestTunnelCommandReplace(t *testing.T) {
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	defer local.Close()
	code, _, errOut := runCLI(t, "tunnel", "--project", "prj_demo", "--name", "demo", "--to", local.URL+"/mcp")
	if code != 2 || !strings.Contains(errOut, "--replace") || !strings.Contains(errOut, "srv_demo") {
		t.Fatalf("the demo server without --replace: exit %d, %q", code, errOut)
	}
	_, stderr, stop := startTunnel(t, "--name", "demo", "--replace", "--to", local.URL+"/mcp")
	if c := stop(); c != 0 || !strings.Contains(stderr.String(), "server srv_demo (demo) was ") ||
		!strings.Contains(stderr.String(), "it now points at the tunnel") {
		t.Errorf("--replace: exit %d; stderr:\n%s", c, stderr.String())
	}
	// Now a tunnel: started again under its name, it needs no --replace.
	_, stderr, stop = startTunnel(t, "--name", "demo", "--to", local.URL+"/mcp")
	if c := stop(); c != 0 || strings.Contains(stderr.String(), " was ") {
		t.Errorf("a tunnel's name again: exit %d; stderr:\n%s", c, stderr.String())
	}
}

// A local server that does not answer is said on the tunnel's stderr, not
// only seen by callers as 502s.
func TestTunnelCommandSaysLocalServerDown(t *testing.T) {
	demoAPI(t)
	dead := httptest.NewServer(http.NotFoundHandler())
	deadURL := dead.URL
	dead.Close() // nothing listens there now
	publicURL, stderr, stop := startTunnel(t, "--name", "down", "--to", deadURL+"/mcp")
	defer stop()
	resp, err := http.Post(publicURL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(stderr.String(), "did not answer a call") {
		t.Errorf("call to a dead local server: %d; stderr:\n%s", resp.StatusCode, stderr.String())
	}
}

// A 502 the local server itself answers (a gateway in front of the MCP
// server) is its answer: the tunnel does not say it did not answer.
func TestTunnelLocal502IsNotUnanswered(t *testing.T) {
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "upstream of the MCP server is down", http.StatusBadGateway)
	}))
	defer local.Close()
	publicURL, stderr, stop := startTunnel(t, "--name", "gw", "--to", local.URL+"/mcp")
	defer stop()
	resp, err := http.Post(publicURL, "application/json", strings.NewReader(`{}`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadGateway || !strings.Contains(string(body), "upstream of the MCP server") {
		t.Fatalf("call: %d %q", resp.StatusCode, body)
	}
	if strings.Contains(stderr.String(), "did not answer") {
		t.Errorf("the local server answered (its own 502), yet stderr says it did not:\n%s", stderr.String())
	}
}

// With two servers of the name, the service repoints the first it lists:
// a tunnel first is reused without --replace, whatever comes after it.
func TestTunnelSameNameTwice(t *testing.T) {
	srv := demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	defer local.Close()
	_, _, stopFirst := startTunnel(t, "--name", "twice", "--to", local.URL+"/mcp")
	if c := stopFirst(); c != 0 {
		t.Fatalf("first tunnel: exit %d", c)
	}
	if _, err := srv.AddServer(projectopstest.ServerSpec{ProjectID: "prj_demo", Name: "twice", URL: "https://real.example/mcp"}); err != nil {
		t.Fatal(err)
	}
	_, stderr, stop := startTunnel(t, "--name", "twice", "--to", local.URL+"/mcp") // fails the test if refused
	if c := stop(); c != 0 || strings.Contains(stderr.String(), " was ") {
		t.Errorf("the tunnel of the name again: exit %d; stderr:\n%s", c, stderr.String())
	}
}

// A caller that gives up before the local server's answer is not the
// local server's silence: nothing is said.
func TestTunnelCallerGoneIsNotUnanswered(t *testing.T) {
	demoAPI(t)
	release := make(chan struct{})
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
		io.WriteString(w, "late")
	}))
	defer local.Close()
	defer close(release)
	publicURL, stderr, stop := startTunnel(t, "--name", "slow", "--to", local.URL+"/mcp")
	client := &http.Client{Timeout: 300 * time.Millisecond}
	if resp, err := client.Post(publicURL, "application/json", strings.NewReader(`{}`)); err == nil {
		resp.Body.Close()
		t.Fatalf("call answered %d; want the caller's timeout", resp.StatusCode)
	}
	time.Sleep(time.Second) // the relay notices the caller gone
	if strings.Contains(stderr.String(), "did not answer") {
		t.Errorf("the caller gave up, yet stderr blames the local server:\n%s", stderr.String())
	}
	stop()
}

// A tunnel whose grant another start of the name revoked says it was
// disconnected, not that it is reconnecting (it exits).
func TestTunnelRevokedDoesNotSayReconnecting(t *testing.T) {
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	defer local.Close()
	_, errA, stopA := startTunnel(t, "--name", "rv", "--to", local.URL+"/mcp")
	_, _, stopB := startTunnel(t, "--name", "rv", "--to", local.URL+"/mcp")
	defer stopB()
	for i := 0; i < 500 && !strings.Contains(errA.String(), "grant revoked"); i++ {
		time.Sleep(20 * time.Millisecond)
	}
	codeA := stopA()
	if !strings.Contains(errA.String(), "grant revoked") {
		t.Fatalf("the first tunnel never saw its grant revoked (exit %d):\n%s", codeA, errA.String())
	}
	if strings.Contains(errA.String(), "reconnecting") {
		t.Errorf("a revoked tunnel (exit %d) said it was reconnecting:\n%s", codeA, errA.String())
	}
}

// Interrupted, the command exits 0 even when revoking the tunnel fails, and
// says so on stderr, as the service's agent does: stopping was asked for
// and done.
func TestTunnelCommandInterruptExitsZeroWhenCloseFails(t *testing.T) {
	srv := demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "ok")
	}))
	defer local.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, stderr, done := runTunnel(t, ctx, local.URL+"/mcp")
	srv.SetFault("POST /projects/{projectId}/tunnels/{serverId}/close", projectopstest.Fault{Status: http.StatusInternalServerError})
	cancel()
	select {
	case code := <-done:
		if code != 0 || !strings.Contains(stderr.String(), "could not close the tunnel: ") ||
			strings.Contains(stderr.String(), "tunnel closed") {
			t.Errorf("interrupted with a failing revoke: exit %d, want 0 and a warning; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("tunnel did not stop on interrupt")
	}
}

// runTunnel starts `projectops tunnel --project prj_demo --name laptop
// --to target` and returns once it says it is connected; its exit code
// arrives on done.
func runTunnel(t *testing.T, ctx context.Context, target string) (stdout, stderr *lockedBuffer, done chan int) {
	t.Helper()
	return runTunnelNamed(t, ctx, target, "laptop")
}

// runTunnelNamed is runTunnel registering the tunnel as server name.
func runTunnelNamed(t *testing.T, ctx context.Context, target, name string) (stdout, stderr *lockedBuffer, done chan int) {
	t.Helper()
	stdout, stderr, done = new(lockedBuffer), new(lockedBuffer), make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"tunnel", "--project", "prj_demo", "--name", name, "--to", target}, stdout, stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "tunnel connected") {
		if time.Now().After(deadline) {
			t.Fatalf("not connected; stderr:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	return stdout, stderr, done
}

// A relay the command cannot reach (here every WebSocket upgrade is cut
// without an answer; the API is served) is said on stderr at each failed
// attempt, with the wait before the next: without OnConnectError's line
// the command waited without a word until interrupted.
func TestTunnelCommandSaysRelayUnreachable(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithSeed(projectopstest.DemoSeed()), projectopstest.WithRateLimit(0, 0))
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Upgrade") != "" {
			panic(http.ErrAbortHandler) // the connection is closed with no response
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	defer front.Close()
	t.Setenv("PROJECTOPS_BASE_URL", front.URL+"/api/v1")
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	local := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer local.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"tunnel", "--project", "prj_demo", "--name", "laptop", "--to", local.URL + "/mcp"}, &stdout, &stderr)
	}()
	const said = "tunnel: could not connect (tunnels: connecting to the relay: "
	deadline := time.Now().Add(10 * time.Second)
	for strings.Count(stderr.String(), said) < 2 { // a failed attempt, and its retry's
		select {
		case code := <-done:
			t.Fatalf("the tunnel command exited %d; stderr:\n%s", code, stderr.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no line said the relay could not be reached; stderr:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("interrupted: exit %d; stderr:\n%s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), "); retrying in ") || strings.Contains(stderr.String(), "tunnel connected") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
}

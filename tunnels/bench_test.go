package tunnels_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

// BenchmarkToolsCall compares one tools/call from a go-sdk client sent
// straight to a local streamable-HTTP server on loopback with the same call
// sent to that server's public tunnel URL (double on loopback, relay over
// a WebSocket, host in process), and with the SDK's servers.CallTool through
// the double to the tunnel. The ratio tunnel/direct is the relay's cost.
//
//	go test -run '^$' -bench ToolsCall -benchmem ./tunnels
func BenchmarkToolsCall(b *testing.B) {
	local := localMCP(nil, nil)
	direct := httptest.NewServer(local)
	defer direct.Close()
	f, g := benchTunnel(b, local)

	call := func(b *testing.B, cs *mcp.ClientSession) {
		for b.Loop() {
			r, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "echo", Arguments: map[string]any{"text": "hi"}})
			if err != nil || text(r) != "echo: hi" {
				b.Fatalf("CallTool: %q, %v", text(r), err)
			}
		}
	}
	b.Run("direct", func(b *testing.B) { call(b, connect(b, direct.URL, http.DefaultClient)) })
	b.Run("tunnel", func(b *testing.B) { call(b, connect(b, g.URL, http.DefaultClient)) })
	b.Run("api+tunnel", func(b *testing.B) {
		for b.Loop() {
			r, err := f.C.Servers.CallTool(context.Background(), f.WS.ProjectID, g.ServerID,
				servers.CallToolParams{ToolName: "echo", Parameters: map[string]any{"text": "hi"}})
			if err != nil || text(r) != "echo: hi" {
				b.Fatalf("CallTool: %q, %v", text(r), err)
			}
		}
	})
}

// BenchmarkRelayThroughput runs 8 concurrent callers (small POSTs, the
// shape of MCP traffic) against the echo handler served directly on
// loopback and through one tunnel, and reports requests per second; the
// tunnel case also reports its rate as a fraction of direct's. The proxy
// case is a yardstick for one more hop on the same machine: the standard
// library's reverse proxy on loopback in front of the direct server.
//
//	go test -run '^$' -bench RelayThroughput -benchtime 2s -count 3 ./tunnels
func BenchmarkRelayThroughput(b *testing.B) {
	direct := httptest.NewServer(echo)
	defer direct.Close()
	_, g := benchTunnel(b, echo)
	var directRate float64
	fraction := func(b *testing.B, u string) {
		if rate := throughput(b, u); directRate > 0 {
			b.ReportMetric(rate/directRate, "x-direct")
		}
	}
	b.Run("direct", func(b *testing.B) { directRate = throughput(b, direct.URL+"/mcp") })
	b.Run("tunnel", func(b *testing.B) { fraction(b, g.URL) })
	b.Run("proxy", func(b *testing.B) {
		u, err := url.Parse(direct.URL)
		if err != nil {
			b.Fatal(err)
		}
		rp := httputil.NewSingleHostReverseProxy(u)
		rp.Transport = &http.Transport{MaxIdleConnsPerHost: 16}
		proxy := httptest.NewServer(rp)
		defer proxy.Close()
		fraction(b, proxy.URL+"/mcp")
	})
}

// BenchmarkRelayPaired is RelayThroughput with direct and tunnel taking
// turns under the same 8 steady callers: each iteration is 100 ms of
// requests to one and then 100 ms to the other (a caller's request in
// flight at a switch counts for the turn it started in), so a host whose
// speed drifts (a shared VM) slows both alike. It reports the tunnel's rate
// over all its turns as a fraction of direct's.
//
//	go test -run '^$' -bench RelayPaired -benchtime 40x ./tunnels
func BenchmarkRelayPaired(b *testing.B) {
	direct := httptest.NewServer(echo)
	defer direct.Close()
	_, g := benchTunnel(b, echo)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	const callers, turn = 8, 100 * time.Millisecond
	urls := [2]string{direct.URL + "/mcp", g.URL}
	var phase atomic.Int32 // -1 not yet, 0 direct, 1 tunnel, 2 stop
	phase.Store(-1)
	var done [2]atomic.Int64
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for {
				p := phase.Load()
				if p > 1 {
					return
				}
				if p < 0 {
					time.Sleep(time.Millisecond)
					continue
				}
				if status, err := post(client, urls[p], `{"jsonrpc":"2.0","id":1,"method":"ping"}`); err != nil || status != http.StatusAccepted {
					b.Errorf("status %d, %v", status, err)
					return
				}
				done[p].Add(1)
			}
		})
	}
	var spent [2]time.Duration
	for b.Loop() {
		for p := range int32(2) {
			start := time.Now()
			phase.Store(p)
			time.Sleep(turn)
			spent[p] += time.Since(start)
		}
	}
	phase.Store(2)
	wg.Wait()
	rate := func(p int) float64 { return float64(done[p].Load()) / spent[p].Seconds() }
	b.ReportMetric(rate(1)/rate(0), "x-direct")
	b.ReportMetric(rate(0), "direct-req/s")
	b.ReportMetric(rate(1), "tunnel-req/s")
}

// throughput posts from 8 concurrent callers and reports req/s.
func throughput(b *testing.B, u string) float64 {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	const callers = 8
	var n atomic.Int64
	start := time.Now()
	b.SetParallelism(max(1, callers/runtime.GOMAXPROCS(0)))
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			status, _ := post(client, u, `{"jsonrpc":"2.0","id":1,"method":"ping"}`)
			if status != http.StatusAccepted {
				b.Errorf("status %d", status)
				return
			}
			n.Add(1)
		}
	})
	rate := float64(n.Load()) / time.Since(start).Seconds()
	b.ReportMetric(rate, "req/s")
	return rate
}

// benchTunnel starts a double on loopback, a tunnel to h and its host.
func benchTunnel(b *testing.B, h http.Handler) (*fixture, *tunnels.Grant) {
	b.Helper()
	f := setup(b)
	base, err := f.Srv.Start()
	if err != nil {
		b.Fatal(err)
	}
	// A client over loopback sockets, so the grant's URLs are loopback
	// URLs and the host's WebSocket is a real connection.
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(base),
		option.WithAPIKey(f.WS.APIKey))
	if err != nil {
		b.Fatal(err)
	}
	f.C = c
	g, err := c.Tunnels.Create(b.Context(), f.WS.ProjectID, tunnels.CreateParams{Name: "bench"})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	connected, done := make(chan struct{}, 1), make(chan error, 1)
	go func() { done <- c.Tunnels.Serve(ctx, g, h, tunnels.OnConnect(func() { connected <- struct{}{} })) }()
	b.Cleanup(func() { cancel(); <-done })
	select {
	case <-connected:
	case err := <-done:
		b.Fatalf("Serve: %v", err)
	}
	return f, g
}

func post(c *http.Client, u, body string) (int, error) {
	resp, err := c.Post(u, "application/json", strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

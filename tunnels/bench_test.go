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

	"github.com/coder/websocket"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/internal/tunnelwire"
	"github.com/projectops/projectops-go/option"
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
// tunnel case also reports its rate as a fraction of direct's. Two
// yardsticks run beside them: bare-host is the same relay with a host that
// answers echo's bytes inline on its reader (no http.Handler, goroutine or
// request per call: what the relay and the WebSocket hop cost alone), and
// proxy is the standard library's reverse proxy on loopback in front of
// the direct server (what one more hop costs on this machine).
//
//	go test -run '^$' -bench RelayThroughput -benchtime 2s -count 3 ./tunnels
func BenchmarkRelayThroughput(b *testing.B) {
	direct := httptest.NewServer(echo)
	defer direct.Close()
	f, g := benchTunnel(b, echo)
	bare := bareHost(b, f)
	var directRate float64
	fraction := func(b *testing.B, u string) {
		if rate := throughput(b, u); directRate > 0 {
			b.ReportMetric(rate/directRate, "x-direct")
		}
	}
	b.Run("direct", func(b *testing.B) { directRate = throughput(b, direct.URL+"/mcp") })
	b.Run("tunnel", func(b *testing.B) { fraction(b, g.URL) })
	b.Run("bare-host", func(b *testing.B) { fraction(b, bare) })
	b.Run("proxy", func(b *testing.B) {
		proxy := httptest.NewServer(reverseProxy(b, direct.URL))
		defer proxy.Close()
		fraction(b, proxy.URL+"/mcp")
	})
}

// reverseProxy is the standard library's reverse proxy to target.
func reverseProxy(b *testing.B, target string) http.Handler {
	u, err := url.Parse(target)
	if err != nil {
		b.Fatal(err)
	}
	rp := httputil.NewSingleHostReverseProxy(u)
	rp.Transport = &http.Transport{MaxIdleConnsPerHost: 16}
	return rp
}

// BenchmarkRelayPaired is RelayThroughput with its cases taking turns
// under the same 8 steady callers: each iteration gives direct, tunnel,
// bare-host and proxy 100 ms each (a caller's request in flight at a
// switch counts for the turn it started in), so a host whose speed drifts
// (a shared VM) slows all alike. It reports each case's rate over all its
// turns as a fraction of direct's (tunnel-x and so on) and direct's rate.
//
//	go test -run '^$' -bench RelayPaired -benchtime 20x ./tunnels
func BenchmarkRelayPaired(b *testing.B) {
	direct := httptest.NewServer(echo)
	defer direct.Close()
	f, g := benchTunnel(b, echo)
	proxy := httptest.NewServer(reverseProxy(b, direct.URL))
	defer proxy.Close()
	targets := []struct{ name, url string }{
		{"direct", direct.URL + "/mcp"}, {"tunnel", g.URL}, {"bare-host", bareHost(b, f)}, {"proxy", proxy.URL + "/mcp"}}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	defer client.CloseIdleConnections()
	const callers, turn = 8, 100 * time.Millisecond
	var phase atomic.Int32 // the target's index; -1 not yet, len(targets) stop
	phase.Store(-1)
	done := make([]atomic.Int64, len(targets))
	var wg sync.WaitGroup
	for range callers {
		wg.Go(func() {
			for {
				p := int(phase.Load())
				if p >= len(targets) {
					return
				}
				if p < 0 {
					time.Sleep(time.Millisecond)
					continue
				}
				if status, err := post(client, targets[p].url, `{"jsonrpc":"2.0","id":1,"method":"ping"}`); err != nil || status != http.StatusAccepted {
					b.Errorf("%s: status %d, %v", targets[p].name, status, err)
					return
				}
				done[p].Add(1)
			}
		})
	}
	spent := make([]time.Duration, len(targets))
	for b.Loop() {
		for p := range targets {
			start := time.Now()
			phase.Store(int32(p))
			time.Sleep(turn)
			spent[p] += time.Since(start)
		}
	}
	phase.Store(int32(len(targets)))
	wg.Wait()
	rate := func(p int) float64 { return float64(done[p].Load()) / spent[p].Seconds() }
	for p := 1; p < len(targets); p++ {
		b.ReportMetric(rate(p)/rate(0), targets[p].name+"-x")
	}
	b.ReportMetric(rate(0), "direct-req/s")
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

// bareHost creates a second tunnel on f's double and serves it from a
// host that answers every request as echo does (202, X-Echo-Method, the
// method, URI and body) inline on its reader, one write per request, with
// no http.Handler, goroutine or http.Request per call. It returns the
// tunnel's public URL.
func bareHost(b *testing.B, f *fixture) string {
	b.Helper()
	g, err := f.C.Tunnels.Create(b.Context(), f.WS.ProjectID, tunnels.CreateParams{Name: "bare"})
	if err != nil {
		b.Fatal(err)
	}
	up := &tunnelwire.UpgradeTransport{}
	hdr := http.Header{"Authorization": {"Bearer " + g.ConnectToken}}
	conn, _, err := websocket.Dial(b.Context(), g.RelayWSURL,
		&websocket.DialOptions{HTTPClient: &http.Client{Transport: up}, HTTPHeader: hdr, Subprotocols: []string{tunnelwire.Subprotocol}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { _ = conn.CloseNow() })
	conn.SetReadLimit(tunnelwire.MaxMessage)
	if _, _, err := conn.Read(b.Context()); err != nil { // hello
		b.Fatal(err)
	}
	go func() {
		r, w := tunnelwire.NewReader(conn), tunnelwire.NewWriter(conn, up.Cork)
		reqs := map[uint32][]byte{} // per stream: "METHOD URI " and the body so far
		var out tunnelwire.Batch
		answer := func(id uint32) error {
			out = out.Reset().Res(id, http.StatusAccepted, http.Header{"X-Echo-Method": {"POST"},
				"Content-Type": {"text/plain; charset=utf-8"}}).Chunk(tunnelwire.ResChunk, id, reqs[id]).End(tunnelwire.ResEnd, id)
			delete(reqs, id)
			return w.Send(out)
		}
		for {
			typ, msg, err := r.Read()
			if err != nil {
				return
			}
			if typ == websocket.MessageBinary {
				c, err := tunnelwire.DecodeChunk(msg)
				if err != nil {
					return
				}
				reqs[c.ID] = append(reqs[c.ID], c.Payload...)
				continue
			}
			m, err := tunnelwire.DecodeControl(msg)
			if err != nil {
				return
			}
			switch m.T {
			case tunnelwire.Req:
				uri := strings.TrimPrefix(m.URL, "/api/mcp/adapter-http/"+g.ServerID)
				uri, _, _ = strings.Cut(uri, "?")
				reqs[m.ID] = []byte(m.Method + " " + tunnels.PublicPath + uri + " ")
				if !m.HasBody && answer(m.ID) != nil {
					return
				}
			case tunnelwire.ReqEnd:
				if answer(m.ID) != nil {
					return
				}
			}
		}
	}()
	return g.URL
}

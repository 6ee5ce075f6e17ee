package tunnels_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/tunnels"
)

// Expose a local handler through a tunnel and call it at its public URL.
// Here the double plays the hosted service; against the real one, use
// projectops.NewClient() and your own MCP server's handler (or ProxyTo).
func Example() {
	srv, err := projectopstest.NewServer()
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	client, err := srv.NewClient()
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	project := srv.Default().ProjectID

	grant, err := client.Tunnels.Create(ctx, project, tunnels.CreateParams{Name: "laptop"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(strings.Contains(grant.String(), "REDACTED"))

	hello := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "hello from %s", r.URL.Path)
	})
	ctx, stop := context.WithCancel(ctx)
	connected, done := make(chan struct{}), make(chan error, 1)
	go func() {
		done <- client.Tunnels.Serve(ctx, grant, hello, tunnels.OnConnect(func() { close(connected) }))
	}()
	<-connected

	resp, err := srv.Client().Get(grant.URL) // the double serves the public URL too
	if err != nil {
		log.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Println(string(body))

	// Revoking stops the host with ErrRevoked.
	if _, err := client.Tunnels.Close(context.Background(), project, grant.ServerID); err != nil {
		log.Fatal(err)
	}
	fmt.Println(errors.Is(<-done, tunnels.ErrRevoked))
	stop()
	// Output:
	// true
	// hello from /mcp
	// true
}

// ProxyTo forwards relayed requests to a server on this machine, as the
// projectops tunnel command does.
func ExampleProxyTo() {
	local, _ := url.Parse("http://127.0.0.1:3000/mcp")
	h, err := tunnels.ProxyTo(local)
	if err != nil {
		log.Fatal(err)
	}
	_ = h // pass to client.Tunnels.Serve
	_, err = tunnels.ProxyTo(&url.URL{Path: "/mcp"})
	fmt.Println(err)
	// Output: projectops: VALIDATION_ERROR: tunnels: ProxyTo needs an absolute http or https URL
}

func ExampleRedactURL() {
	fmt.Println(tunnels.RedactURL("https://t1.tunnels.example/api/mcp/adapter-http/srv_1?k=s3cret"))
	// Output: https://t1.tunnels.example/api/mcp/adapter-http/srv_1?k=REDACTED
}

// Command hostcatalog prints the host-compatibility catalog: a program that
// uses one service only, built alone with catalog.NewService, so it links
// neither the MCP SDK nor the websocket library the servers and tunnels
// services need. The catalog is public: no API key is needed.
//
//	go run ./examples/hostcatalog                       # the hosted service
//	PROJECTOPS_BASE_URL=http://127.0.0.1:8080/api/v1 go run ./examples/hostcatalog
package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/option"
)

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "hostcatalog:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	svc, err := catalog.NewService(option.WithRequestTimeout(10 * time.Second))
	if err != nil {
		return err
	}
	c, err := svc.HostCatalog(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "catalog version %d (%s)\n", c.Version, c.Source)
	for _, id := range slices.Sorted(maps.Keys(c.Catalog.HostsByID)) {
		h := c.Catalog.HostsByID[id]
		fmt.Fprintf(w, "%-12s %-28s MCP apps: %t\n", id, h.Label, h.RendersMCPApps)
	}
	return nil
}

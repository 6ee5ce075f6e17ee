package catalog_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// A caller whose context ends while the double refreshes the live host
// catalog (or reads it for a template) gets its context's error then, not
// after the gateway's 6.5 s fetch timeout: the shared refresh goes on for
// the callers still waiting, and a host whose template was being read is
// not created (from the bundled catalog, standing in for a slow live one).
func TestHostCatalogHonoursCancel(t *testing.T) {
	t.Parallel()
	stalled := func(ctx context.Context) ([]byte, error) { <-ctx.Done(); return nil, ctx.Err() }
	f := setup(t, projectopstest.WithHostCatalogSource(stalled))
	c := f.Client(t, option.WithMaxRetries(0))
	calls := map[string]func(ctx context.Context) error{
		"HostCatalog": func(ctx context.Context) error { _, err := c.Catalog.HostCatalog(ctx); return err },
		"Hosts.Create from a template": func(ctx context.Context) error {
			_, err := c.Hosts.Create(ctx, f.WS.ProjectID, hosts.CreateParams{Name: "h", Template: "claude"})
			return err
		},
	}
	for name, call := range calls {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		start := time.Now()
		err := call(ctx)
		cancel()
		if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
			t.Errorf("%s with a 200 ms context: %v after %v, want context.DeadlineExceeded before the 6.5 s fetch timeout", name, err, time.Since(start))
		}
	}
	if page, err := c.Hosts.List(t.Context(), f.WS.ProjectID, nil); err != nil || len(page.Items) != 0 {
		t.Errorf("hosts after a create whose caller left: %+v, %v; want none", page, err)
	}
}

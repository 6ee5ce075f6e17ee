package mcpops

import (
	"context"
	"slices"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// The doctor asks its four listings at once, as the service collects them
// (so a server that answers none costs one timeout, not four): a server
// that answers a listing only once all four were asked makes a ready
// report, where asking them one after another would time out.
func TestDoctorListsAtOnce(t *testing.T) {
	t.Parallel()
	lists := []string{"tools/list", "resources/list", "resources/templates/list", "prompts/list"}
	var mu sync.Mutex
	asked := map[string]bool{}
	all := make(chan struct{})
	s := pagedServer()
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if slices.Contains(lists, m) {
				mu.Lock()
				if !asked[m] {
					asked[m] = true
					if len(asked) == len(lists) {
						close(all)
					}
				}
				mu.Unlock()
				select {
				case <-all:
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
			return next(ctx, m, req)
		}
	})
	l := newLayer(t)
	sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_b", URL: "http://inprocess.invalid/paged",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: s}})
	rep, herr := Doctor(t.Context(), sc, nil)
	if herr != nil {
		t.Fatal(herr)
	}
	if rep.Status != servers.DoctorReady {
		t.Errorf("status %s, error %+v, checks %+v %+v %+v %+v; want ready", rep.Status, rep.Error,
			rep.Checks.Tools, rep.Checks.Resources, rep.Checks.ResourceTemplates, rep.Checks.Prompts)
	}
}

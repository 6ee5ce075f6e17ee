package hosts_test

import (
	"cmp"
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
)

const (
	routeList = "GET /projects/{projectId}/hosts"
	routeGet  = "GET /projects/{projectId}/hosts/{hostId}"
	routePost = "POST /projects/{projectId}/hosts"
	routePut  = "PATCH /projects/{projectId}/hosts/{hostId}"
	routeDel  = "DELETE /projects/{projectId}/hosts/{hostId}"
)

// statuses lists the statuses the double answered on route, in order (0
// for a dropped connection).
func statuses(srv *projectopstest.Server, route string) []int {
	out := []int{}
	for _, r := range srv.Requests() {
		if r.Route == route {
			out = append(out, r.Status)
		}
	}
	return out
}

// Retries end to end: what each operation class retries after, counted on
// the double's side.
func TestRetriesThroughFaults(t *testing.T) {
	t.Parallel()
	type op func(ctx context.Context, c *projectops.Client, p, h string) error
	get := func(ctx context.Context, c *projectops.Client, p, h string) error {
		_, err := c.Hosts.Get(ctx, p, h)
		return err
	}
	list := func(ctx context.Context, c *projectops.Client, p, _ string) error {
		_, err := c.Hosts.List(ctx, p, nil)
		return err
	}
	create := func(ctx context.Context, c *projectops.Client, p, _ string) error {
		_, err := c.Hosts.Create(ctx, p, hosts.CreateParams{Name: "new", Template: hosts.TemplateClaude})
		return err
	}
	update := func(ctx context.Context, c *projectops.Client, p, h string) error {
		_, err := c.Hosts.Update(ctx, p, h, hosts.UpdateParams{Name: "renamed"})
		return err
	}
	del := func(ctx context.Context, c *projectops.Client, p, h string) error {
		_, err := c.Hosts.Delete(ctx, p, h, nil)
		return err
	}
	tests := []struct {
		name     string
		route    string
		fault    projectopstest.Fault
		op       op
		wantCode projectops.Code // "" for success
		status   int             // the error's StatusCode
		wantSeen []int           // statuses the double answered on route
		wantHost int             // hosts in the project afterwards
		wantName string          // the seeded host's name afterwards ("" for "H")
	}{
		{name: "read retried after 503", route: routeGet, fault: projectopstest.Fault{Status: 503, Times: 1},
			op: get, wantSeen: []int{503, 200}, wantHost: 1},
		{name: "read retried after a dropped connection", route: routeGet, fault: projectopstest.Fault{Drop: true, Times: 1},
			op: get, wantSeen: []int{0, 200}, wantHost: 1},
		{name: "listing retried after two 502s", route: routeList, fault: projectopstest.Fault{Status: 502, Times: 2},
			op: list, wantSeen: []int{502, 502, 200}, wantHost: 1},
		{name: "read gives up after the retries", route: routeGet, fault: projectopstest.Fault{Status: 504},
			op: get, wantCode: projectops.CodeTimeout, status: 504, wantSeen: []int{504, 504, 504, 504}, wantHost: 1},
		{name: "read not retried after 404", route: routeGet, fault: projectopstest.Fault{Status: 404, Times: 1},
			op: get, wantCode: projectops.CodeNotFound, status: 404, wantSeen: []int{404}, wantHost: 1},
		{name: "read not retried at the concurrent-run cap", route: routeGet,
			fault: projectopstest.Fault{Status: 429, Details: map[string]any{"reason": "CONCURRENT_RUN_LIMIT"}, Times: 1},
			op:    get, wantCode: projectops.CodeRateLimited, status: 429, wantSeen: []int{429}, wantHost: 1},
		{name: "create not retried after 503", route: routePost, fault: projectopstest.Fault{Status: 503, Times: 1},
			op: create, wantCode: projectops.CodeInternal, status: 503, wantSeen: []int{503}, wantHost: 1},
		{name: "create retried after 429 with Retry-After", route: routePost,
			fault: projectopstest.Fault{Status: 429, RetryAfter: time.Second, Times: 1},
			op:    create, wantSeen: []int{429, 201}, wantHost: 2},
		{name: "create retried after 429 without Retry-After", route: routePost,
			fault: projectopstest.Fault{Status: 429, Times: 2},
			op:    create, wantSeen: []int{429, 429, 201}, wantHost: 2},
		{name: "update retried after 503 (idempotent)", route: routePut, fault: projectopstest.Fault{Status: 503, Times: 1},
			op: update, wantSeen: []int{503, 200}, wantHost: 1, wantName: "renamed"},
		{name: "update retried after a dropped connection, body resent", route: routePut,
			fault: projectopstest.Fault{Drop: true, Times: 2},
			op:    update, wantSeen: []int{0, 0, 200}, wantHost: 1, wantName: "renamed"},
		{name: "delete not retried after 503", route: routeDel, fault: projectopstest.Fault{Status: 503, Times: 1},
			op: del, wantCode: projectops.CodeInternal, status: 503, wantSeen: []int{503}, wantHost: 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			host := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: f.WS.ProjectID, Name: "H",
				Template: hosts.TemplateClaude}))
			f.Srv.SetFault(tt.route, tt.fault)
			err := tt.op(t.Context(), f.C, f.WS.ProjectID, host)
			if tt.wantCode == "" {
				if err != nil {
					t.Fatalf("err = %v, want success", err)
				}
			} else {
				var e *projectops.Error
				if !errors.As(err, &e) || e.Code != tt.wantCode || e.StatusCode != tt.status {
					t.Fatalf("err = %v, want %d %s", err, tt.status, tt.wantCode)
				}
				if e.RequestID == "" {
					t.Error("error without a request id")
				}
			}
			if diff := gocmp.Diff(tt.wantSeen, statuses(f.Srv, tt.route)); diff != "" {
				t.Errorf("statuses the double answered on %s (-want +got):\n%s", tt.route, diff)
			}
			f.Srv.ClearFaults()
			page, err := f.C.Hosts.List(t.Context(), f.WS.ProjectID, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) != tt.wantHost {
				t.Errorf("project has %d hosts, want %d", len(page.Items), tt.wantHost)
			}
			wantName := cmp.Or(tt.wantName, "H")
			if h, err := f.C.Hosts.Get(t.Context(), f.WS.ProjectID, host); err != nil || h.Name != wantName {
				t.Errorf("seeded host: %+v, %v; want name %q", h, err, wantName)
			}
		})
	}
}

// A dropped connection during a create is not retried: the request may
// have run. The caller gets the network error, not a *projectops.Error.
func TestCreateDroppedNotRetried(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.Srv.SetFault(routePost, projectopstest.Fault{Drop: true, Times: 1})
	_, err := f.C.Hosts.Create(t.Context(), f.WS.ProjectID, hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude})
	if err == nil {
		t.Fatal("Create succeeded through a dropped connection")
	}
	if e := (*projectops.Error)(nil); errors.As(err, &e) {
		t.Errorf("err = %v is a *projectops.Error, want a network error", err)
	}
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("err = %v, want it to wrap io.ErrUnexpectedEOF", err)
	}
	if diff := gocmp.Diff([]int{0}, statuses(f.Srv, routePost)); diff != "" {
		t.Errorf("statuses (-want +got):\n%s", diff)
	}
}

// Every error carries the x-request-id the double answered with and
// logged; after retries it is the last attempt's.
func TestErrorRequestID(t *testing.T) {
	t.Parallel()
	f := setup(t)
	_, err := f.C.Hosts.Get(t.Context(), f.WS.ProjectID, "hst_nope")
	e := wantError(t, err, projectops.CodeNotFound, true)
	reqs := f.Srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("double saw %d requests", len(reqs))
	}
	if e.RequestID == "" || e.RequestID != reqs[0].RequestID {
		t.Errorf("RequestID = %q, double logged %q", e.RequestID, reqs[0].RequestID)
	}
	if !strings.Contains(e.Error(), e.RequestID) {
		t.Errorf("Error() = %q lacks the request id", e.Error())
	}
	if e.Method != http.MethodGet || e.Path != "/projects/"+f.WS.ProjectID+"/hosts/hst_nope" {
		t.Errorf("Method, Path = %q, %q", e.Method, e.Path)
	}

	f.Srv.ResetRequests()
	f.Srv.SetFault(routeGet, projectopstest.Fault{Status: 502})
	_, err = f.C.Hosts.Get(t.Context(), f.WS.ProjectID, "hst_nope")
	e = wantError(t, err, projectops.CodeServerUnreachable, true)
	reqs = f.Srv.Requests()
	if len(reqs) != 4 {
		t.Fatalf("double saw %d requests, want 4", len(reqs))
	}
	ids := map[string]bool{}
	for _, r := range reqs {
		ids[r.RequestID] = true
	}
	if len(ids) != 4 {
		t.Errorf("request ids are not distinct: %v", ids)
	}
	if last := reqs[len(reqs)-1].RequestID; e.RequestID != last {
		t.Errorf("RequestID = %q, want the last attempt's %q", e.RequestID, last)
	}
}

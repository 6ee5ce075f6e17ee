package servers_test

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/option"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

func ms(t time.Time) shared.Millis { return shared.Millis(t.UnixMilli()) }

// Secret values held by the saved servers; none may ever reach a response.
var secrets = []string{
	"stdio-command-7f3a", "--token=arg-secret-91bc", "env-secret-55de", "header-secret-c0ff", "client-secret-ee01",
}

// seedServers saves one server of every kind in the default project and
// returns what List must answer.
func seedServers(t *testing.T, f *fixture) []servers.Server {
	t.Helper()
	p := f.WS.ProjectID
	httpID := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "remote",
		URL:     "https://mcp.example.com/mcp",
		Headers: map[string]projectopstest.Secret{"Authorization": "Bearer header-secret-c0ff", "X-Api-Key": "header-secret-c0ff"}}))
	f.Clock.Advance(time.Second)
	sseID := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "events",
		TransportType: servers.TransportSSE, URL: "https://sse.example.com/sse", UseOAuth: true,
		ClientSecret: "client-secret-ee01", OAuthScopes: []string{"read", "write"}}))
	f.Clock.Advance(time.Second)
	stdioID := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "local",
		Command: "stdio-command-7f3a", Args: []string{"serve", "--token=arg-secret-91bc"},
		Env: map[string]projectopstest.Secret{"API_TOKEN": "env-secret-55de"}}))
	offID := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "off",
		URL: "http://localhost:9000/mcp", Disabled: true}))
	at := func(s int) shared.Millis { return ms(t0.Add(time.Duration(s) * time.Second)) }
	return []servers.Server{
		{ID: httpID, ProjectID: p, Name: "remote", Enabled: true, TransportType: servers.TransportHTTP,
			URL: "https://mcp.example.com/mcp", CreatedAt: at(0), UpdatedAt: at(0)},
		// Saved as SSE, listed as the service lists it: an http record.
		{ID: sseID, ProjectID: p, Name: "events", Enabled: true, TransportType: servers.TransportHTTP,
			URL: "https://sse.example.com/sse", UseOAuth: true, HasClientSecret: true,
			OAuthScopes: []string{"read", "write"}, CreatedAt: at(1), UpdatedAt: at(1)},
		{ID: stdioID, ProjectID: p, Name: "local", Enabled: true, TransportType: servers.TransportStdio,
			CreatedAt: at(2), UpdatedAt: at(2)},
		{ID: offID, ProjectID: p, Name: "off", Enabled: false, TransportType: servers.TransportHTTP,
			URL: "http://localhost:9000/mcp", CreatedAt: at(2), UpdatedAt: at(2)},
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	f := setup(t)
	want := seedServers(t, f)
	// A server of another project is not listed.
	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "Other"}))
	must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: other, Name: "theirs", URL: "https://other.example.com/mcp"}))

	rec := &recorder{RT: f.Srv.Transport()}
	c := f.Client(t, option.WithTransport(rec))
	page, err := c.Servers.List(t.Context(), f.WS.ProjectID, nil)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	if diff := cmp.Diff(want, page.Items); diff != "" {
		t.Errorf("List (-want +got):\n%s", diff)
	}
	if page.NextCursor != "" {
		t.Errorf("NextCursor = %q", page.NextCursor)
	}
	all, err := collect(c.Servers.All(t.Context(), f.WS.ProjectID, nil))
	if err != nil {
		t.Fatalf("All: %v", err)
	}
	if diff := cmp.Diff(want, all); diff != "" {
		t.Errorf("All (-want +got):\n%s", diff)
	}

	// The raw bodies carry no stdio command line, env or header values, and
	// no field that could hold them.
	ex := rec.Exchanges()
	if len(ex) != 2 {
		t.Fatalf("recorded %d exchanges, want 2", len(ex))
	}
	for _, x := range ex {
		if x.Status != 200 {
			t.Fatalf("%s %s: %d", x.Method, x.Path, x.Status)
		}
		for _, s := range secrets {
			if strings.Contains(string(x.Body), s) {
				t.Errorf("%s %s: raw body contains the secret %q", x.Method, x.Path, s)
			}
		}
		var raw struct {
			Items []map[string]json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(x.Body, &raw); err != nil {
			t.Fatal(err)
		}
		if len(raw.Items) != len(want) {
			t.Fatalf("raw body has %d items", len(raw.Items))
		}
		for _, it := range raw.Items {
			for _, k := range []string{"command", "args", "env", "headers", "clientSecret", "client_secret"} {
				if _, ok := it[k]; ok {
					t.Errorf("raw item has field %q: %s", k, x.Body)
				}
			}
		}
	}
}

func TestListEmpty(t *testing.T) {
	t.Parallel()
	f := setup(t)
	page, err := f.C.Servers.List(t.Context(), f.WS.ProjectID, nil)
	if err != nil {
		t.Fatal(err)
	}
	if page.Items == nil || len(page.Items) != 0 {
		t.Errorf("Items = %#v, want an empty, non-nil slice", page.Items)
	}
}

func TestListErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		project func(f *fixture) string
		code    projectops.Code
		sent    bool
	}{
		{"unknown project", func(*fixture) string { return "prj_nope" }, projectops.CodeNotFound, true},
		{"project of another organization", func(f *fixture) string {
			org := must(t)(f.Srv.AddOrganization(projectopstest.OrganizationSpec{Name: "Elsewhere"}))
			return must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: org, Name: "Foreign"}))
		}, projectops.CodeNotFound, true},
		{"empty project id", func(*fixture) string { return "" }, projectops.CodeValidation, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			p := tt.project(f)
			_, err := f.C.Servers.List(t.Context(), p, nil)
			e := wantError(t, err, tt.code, tt.sent)
			_, err = collect(f.C.Servers.All(t.Context(), p, nil))
			wantError(t, err, tt.code, tt.sent)
			n := len(f.Srv.Requests())
			if !tt.sent {
				if got, _ := e.Details["field"].(string); got != "projectId" {
					t.Errorf("details.field = %q", got)
				}
				if n != 0 {
					t.Errorf("double saw %d requests, want none", n)
				}
			} else if n != 2 {
				t.Errorf("double saw %d requests, want 2", n)
			}
		})
	}
}

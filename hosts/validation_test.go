package hosts_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// wantFields asserts a VALIDATION_ERROR naming several fields in
// details.fields (the "exactly one of" and "at least one of" rules).
func wantFields(t *testing.T, err error, fields ...string) {
	t.Helper()
	e := wantError(t, err, projectops.CodeValidation, true)
	raw, _ := e.Details["fields"].([]any)
	var got []string
	for _, f := range raw {
		s, _ := f.(string)
		got = append(got, s)
	}
	if diff := cmp.Diff(fields, got); diff != "" {
		t.Fatalf("details.fields (-want +got):\n%s\n(details %v)", diff, e.Details)
	}
}

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	cfg := map[string]any{"modelId": "openai/gpt-5"}
	tests := []struct {
		name   string
		params func(otherServer string) hosts.CreateParams
		field  string   // details.field
		fields []string // or details.fields
	}{
		{name: "missing name", field: "name",
			params: func(string) hosts.CreateParams { return hosts.CreateParams{Template: hosts.TemplateClaude} }},
		{name: "missing name with config", field: "name",
			params: func(string) hosts.CreateParams { return hosts.CreateParams{Config: hosts.MustConfig(cfg)} }},
		{name: "both template and config", fields: []string{"template", "config"},
			params: func(string) hosts.CreateParams {
				return hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude, Config: hosts.MustConfig(cfg)}
			}},
		{name: "neither template nor config", fields: []string{"template", "config"},
			params: func(string) hosts.CreateParams { return hosts.CreateParams{Name: "x"} }},
		{name: "unknown template", field: "template",
			params: func(string) hosts.CreateParams { return hosts.CreateParams{Name: "x", Template: "gemini"} }},
		{name: "template in capitals", field: "template",
			params: func(string) hosts.CreateParams { return hosts.CreateParams{Name: "x", Template: "Claude"} }},
		{name: "theme alone", fields: []string{"template", "config"},
			params: func(string) hosts.CreateParams { return hosts.CreateParams{Name: "x", Theme: hosts.ThemeDark} }},
		{name: "bad theme", field: "theme",
			params: func(string) hosts.CreateParams {
				return hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude, Theme: "sepia"}
			}},
		// An empty object is sent, and the service names it (a nil
		// Config is omitted: "neither", above).
		{name: "empty config", fields: []string{"template", "config"},
			params: func(string) hosts.CreateParams {
				return hosts.CreateParams{Name: "x", Config: hosts.MustConfig(map[string]any{})}
			}},
		{name: "modelId not a string", field: "config.modelId",
			params: func(string) hosts.CreateParams {
				return hosts.CreateParams{Name: "x", Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"modelId": 5}))}
			}},
		{name: "serverIds not an array", field: "config.serverIds",
			params: func(string) hosts.CreateParams {
				return hosts.CreateParams{Name: "x", Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"serverIds": "srv_1"}))}
			}},
		{name: "serverIds with a number", field: "config.serverIds",
			params: func(string) hosts.CreateParams {
				return hosts.CreateParams{Name: "x", Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"serverIds": []any{1}}))}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			otherProject := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "Other"}))
			otherServer := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: otherProject, Name: "s",
				URL: "https://mcp.example.com/mcp"}))
			_, err := f.C.Hosts.Create(t.Context(), f.WS.ProjectID, tt.params(otherServer))
			if tt.fields != nil {
				wantFields(t, err, tt.fields...)
			} else {
				wantField(t, err, tt.field, true)
			}
			if n := len(f.Srv.Requests()); n != 1 {
				t.Errorf("double saw %d requests, want 1 (a 400 is not retried)", n)
			}
			page, err := f.C.Hosts.List(t.Context(), f.WS.ProjectID, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(page.Items) != 0 {
				t.Errorf("a rejected create left hosts %v", hostIDs(page.Items))
			}
		})
	}
}

func TestUpdateValidation(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		params hosts.UpdateParams
		field  string
		fields []string
	}{
		{name: "nothing set", params: hosts.UpdateParams{}, fields: []string{"name", "config"}},
		{name: "empty config only", params: hosts.UpdateParams{Config: hosts.MustConfig(map[string]any{})}, field: "config"},
		{name: "config without hostContext", params: hosts.UpdateParams{Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"hostContext": nil}))},
			field: "config.hostContext"},
		{name: "modelId not a string", params: hosts.UpdateParams{Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"modelId": false}))},
			field: "config.modelId"},
		{name: "serverIds not an array", params: hosts.UpdateParams{Config: hosts.MustConfig(sdktest.HostConfig(map[string]any{"serverIds": map[string]any{}}))},
			field: "config.serverIds"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			host := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: f.WS.ProjectID, Name: "H",
				Template: hosts.TemplateClaude}))
			before, err := f.C.Hosts.Get(t.Context(), f.WS.ProjectID, host)
			if err != nil {
				t.Fatal(err)
			}
			_, err = f.C.Hosts.Update(t.Context(), f.WS.ProjectID, host, tt.params)
			if tt.fields != nil {
				wantFields(t, err, tt.fields...)
			} else {
				wantField(t, err, tt.field, true)
			}
			after, err := f.C.Hosts.Get(t.Context(), f.WS.ProjectID, host)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("a rejected update changed the host (-before +after):\n%s", diff)
			}
		})
	}
}

// Empty path ids are rejected by the SDK, before anything is sent.
func TestEmptyIDs(t *testing.T) {
	t.Parallel()
	create := hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude}
	tests := []struct {
		name  string
		call  func(ctx context.Context, c *projectops.Client) error
		field string
	}{
		{"List projectId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.List(ctx, "", nil)
			return err
		}, "projectId"},
		{"All projectId", func(ctx context.Context, c *projectops.Client) error {
			_, err := collect(c.Hosts.All(ctx, "", nil))
			return err
		}, "projectId"},
		{"Get projectId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Get(ctx, "", "hst_1")
			return err
		}, "projectId"},
		{"Get hostId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Get(ctx, "prj_1", "")
			return err
		}, "hostId"},
		{"Create projectId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Create(ctx, "", create)
			return err
		}, "projectId"},
		{"Update projectId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Update(ctx, "", "hst_1", hosts.UpdateParams{Name: "y"})
			return err
		}, "projectId"},
		{"Update hostId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Update(ctx, "prj_1", "", hosts.UpdateParams{Name: "y"})
			return err
		}, "hostId"},
		{"Delete projectId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Delete(ctx, "", "hst_1", nil)
			return err
		}, "projectId"},
		{"Delete hostId", func(ctx context.Context, c *projectops.Client) error {
			_, err := c.Hosts.Delete(ctx, "prj_1", "", &hosts.DeleteParams{Force: true})
			return err
		}, "hostId"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			wantField(t, tt.call(t.Context(), f.C), tt.field, false)
			if n := len(f.Srv.Requests()); n != 0 {
				t.Errorf("double saw %d requests, want none", n)
			}
		})
	}
}

// The service accepts theme beside a config and ignores it: the config is
// stored as sent (a theme belongs in its hostContext).
func TestThemeWithConfigIgnored(t *testing.T) {
	t.Parallel()
	f := setup(t)
	cfg := sdktest.HostConfig(nil)
	h, err := f.C.Hosts.Create(t.Context(), f.WS.ProjectID, hosts.CreateParams{Name: "x", Config: hosts.MustConfig(cfg), Theme: hosts.ThemeDark})
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(h.Config, &got); err != nil {
		t.Fatal(err)
	}
	if _, present := got["theme"]; present || len(got["hostContext"].(map[string]any)) != 0 {
		t.Errorf("theme was applied: %s", h.Config)
	}
}

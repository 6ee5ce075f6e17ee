package projectopstest_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// Racing tunnel creates of one name (api-spec.md §4.8: create registers
// the server record if missing and mints a grant) leave one server record,
// answered as new once; no secretVersion is handed out twice, and the
// record's url is the newest grant's. A close racing a create leaves the
// server listing readable.
func TestConcurrentTunnelCreateOneName(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, p := inproc(srv), "/projects/"+ws.ProjectID
	rs := fanOut(20, func(int) reply {
		return tg.send("POST", p+"/tunnels", ws.APIKey, `{"name":"local"}`, nil)
	})
	servers := map[string]bool{}
	created := 0
	urls := map[float64]string{} // by secretVersion
	for i, r := range rs {
		if r.status != 201 {
			t.Fatalf("create %d: %v", i, r)
		}
		m := r.object()
		servers[r.field("serverId")] = true
		if m["existed"] != true {
			created++
		}
		v, _ := m["secretVersion"].(float64)
		if _, dup := urls[v]; dup {
			t.Errorf("secretVersion %v handed out twice", v)
		}
		urls[v] = r.field("url")
	}
	if len(servers) != 1 {
		t.Fatalf("%d server records, want 1", len(servers))
	}
	if created != 1 {
		t.Errorf("%d grants answered existed=false, want exactly 1", created)
	}
	newest := urls[slices.Max(slices.Collect(maps.Keys(urls)))]
	var list listPage
	tg.call(t, "GET", p+"/servers", ws.APIKey, nil).decode(t, &list)
	n := 0
	for _, sv := range list.Items {
		if sv["name"] == "local" {
			n++
			if sv["url"] != newest {
				t.Errorf("server url %v, want the newest grant's %q", sv["url"], newest)
			}
		}
	}
	if n != 1 {
		t.Errorf("%d listed servers named local, want 1", n)
	}
	sid := slices.Collect(maps.Keys(servers))[0]
	rs = fanOut(2, func(i int) reply {
		if i == 0 {
			return tg.send("POST", p+"/tunnels/"+sid+"/close", ws.APIKey, nil, nil)
		}
		return tg.send("POST", p+"/tunnels", ws.APIKey, `{"name":"local"}`, nil)
	})
	for i, r := range rs {
		if r.status/100 != 2 {
			t.Errorf("close/create %d: %v", i, r)
		}
	}
	if r := tg.call(t, "GET", p+"/servers", ws.APIKey, nil); r.status != 200 {
		t.Errorf("servers after close/create race: %d %s", r.status, r.body)
	}
}

// Racing host PATCHes each answer, and leave stored, a whole write (name
// and config from the same request, never torn); racing DELETEs answer one
// 200 and the rest 404 NOT_FOUND, round after round.
func TestConcurrentHostPatchAndDelete(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, p := inproc(srv), "/projects/"+ws.ProjectID+"/hosts"
	var host struct {
		ID     string         `json:"id"`
		Config map[string]any `json:"config"`
	}
	tg.call(t, "POST", p, ws.APIKey, map[string]any{"name": "h", "template": "claude"}).decode(t, &host)
	rs := fanOut(20, func(i int) reply {
		cfg := maps.Clone(host.Config)
		delete(cfg, "id") // read-back only, not input
		delete(cfg, "schemaVersion")
		cfg["modelId"] = fmt.Sprintf("openai/gpt-%d", i)
		return tg.send("PATCH", p+"/"+host.ID, ws.APIKey, map[string]any{"name": fmt.Sprint("n", i), "config": cfg}, nil)
	})
	for i, r := range rs {
		if r.status != 200 {
			t.Fatalf("patch %d: %v", i, r)
		}
		c, _ := r.object()["config"].(map[string]any)
		if r.field("name") != fmt.Sprint("n", i) || c["modelId"] != fmt.Sprintf("openai/gpt-%d", i) {
			t.Errorf("patch %d answered a torn record: name %q model %v", i, r.field("name"), c["modelId"])
		}
	}
	var got struct {
		Name   string         `json:"name"`
		Config map[string]any `json:"config"`
	}
	tg.call(t, "GET", p+"/"+host.ID, ws.APIKey, nil).decode(t, &got)
	if "openai/gpt-"+strings.TrimPrefix(got.Name, "n") != got.Config["modelId"] {
		t.Errorf("stored host torn: name %q model %v", got.Name, got.Config["modelId"])
	}
	for round := range 4 { // repeated: one race can miss a split find and delete
		if round > 0 {
			tg.call(t, "POST", p, ws.APIKey, map[string]any{"name": fmt.Sprint("h", round), "template": "claude"}).decode(t, &host)
		}
		rs = fanOut(10, func(int) reply { return tg.send("DELETE", p+"/"+host.ID, ws.APIKey, nil, nil) })
		ok, notFound := 0, 0
		for _, r := range rs {
			switch {
			case r.status == 200:
				ok++
			case r.status == 404 && r.field("code") == "NOT_FOUND":
				notFound++
			}
		}
		if ok != 1 || notFound != 9 {
			t.Fatalf("round %d: deletes: %d ok, %d not found, want 1 and 9: %v", round, ok, notFound, rs)
		}
	}
}

// builtEnvironment adds a built environment to the default project and
// returns its path under the project.
func builtEnvironment(t *testing.T, srv *projectopstest.Server) string {
	t.Helper()
	ws := srv.Default()
	env := must[string](t)(srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID, OwnerUserID: ws.UserID,
		Name: "e", Dockerfile: "FROM ubuntu:22.04@sha256:cb287cf26b15fded26828219b268886d76ea3963bc93495425dcf08225c86e9f\n", Built: true}))
	return "/projects/" + ws.ProjectID + "/computer-environments/" + env
}

// Racing builds each get a build record, listed newest first (api-spec.md
// §3 and §4.7: build is 202 and records a build); racing updates answer
// and leave a whole write (name and Dockerfile from one request); boots racing
// deletes see one delete succeed, and the environment gone after.
func TestConcurrentEnvironmentBuildUpdateDelete(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	key, env := srv.Default().APIKey, builtEnvironment(t, srv)
	tg := inproc(srv)
	const builds = 15
	rs := fanOut(builds, func(int) reply { return tg.send("POST", env+"/build", key, nil, nil) })
	started := map[string]bool{}
	for i, r := range rs {
		if r.status != 202 {
			t.Fatalf("build %d: %v", i, r)
		}
		started[r.field("buildId")] = true
	}
	if len(started) != builds {
		t.Errorf("%d distinct build ids answered, want %d", len(started), builds)
	}
	var page listPage
	tg.call(t, "GET", env+"/builds?limit=100", key, nil).decode(t, &page)
	if len(page.Items) != builds+1 {
		t.Errorf("%d builds listed, want %d (with the seeded one)", len(page.Items), builds+1)
	}
	for i := 1; i < len(page.Items); i++ {
		a, _ := page.Items[i-1]["createdAt"].(float64)
		b, _ := page.Items[i]["createdAt"].(float64)
		if a < b {
			t.Errorf("builds not newest first at %d: %v then %v", i, a, b)
		}
	}
	rs = fanOut(12, func(i int) reply {
		return tg.send("PATCH", env, key, map[string]any{"name": fmt.Sprint("e", i),
			"dockerfile": fmt.Sprintf("FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN echo %d\n", i)}, nil)
	})
	for i, r := range rs {
		if r.status != 200 {
			t.Fatalf("patch %d: %v", i, r)
		}
		if name, df := r.field("name"), r.field("dockerfile"); name != fmt.Sprint("e", i) || !strings.HasSuffix(df, fmt.Sprintf("RUN echo %d\n", i)) {
			t.Errorf("patch %d answered a torn record: name %q dockerfile %q", i, name, df)
		}
	}
	var got struct {
		Name       string `json:"name"`
		Dockerfile string `json:"dockerfile"`
	}
	tg.call(t, "GET", env, key, nil).decode(t, &got)
	if !strings.HasSuffix(got.Dockerfile, "RUN echo "+strings.TrimPrefix(got.Name, "e")+"\n") {
		t.Errorf("stored environment torn: name %q dockerfile %q", got.Name, got.Dockerfile)
	}
	const boots = 5
	rs = fanOut(10, func(i int) reply {
		if i < boots {
			return tg.send("POST", env+"/use", key, nil, nil)
		}
		return tg.send("DELETE", env, key, nil, nil)
	})
	deleted := 0
	for i, r := range rs {
		switch {
		case i >= boots && r.status == 200:
			deleted++
		case r.status == 404:
		case i < boots && r.status/100 == 2:
		default:
			t.Errorf("op %d: %v", i, r)
		}
	}
	if deleted != 1 {
		t.Errorf("%d deletes succeeded, want 1", deleted)
	}
	if r := tg.call(t, "POST", env+"/use", key, nil); r.status != 404 {
		t.Errorf("boot after delete: %d %s", r.status, r.body)
	}
}

// Builds racing the environment's delete: once the builds have ended, the
// environment and its builds list read 404 and it is no longer listed
// (api-spec.md §4.7: delete is permanent).
func TestConcurrentEnvironmentBuildVsDelete(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, env := inproc(srv), builtEnvironment(t, srv)
	const delAt = 6
	rs := fanOut(12, func(i int) reply {
		if i == delAt {
			return tg.send("DELETE", env, ws.APIKey, nil, nil)
		}
		return tg.send("POST", env+"/build", ws.APIKey, nil, nil)
	})
	if rs[delAt].status != 200 {
		t.Errorf("delete: %v", rs[delAt])
	}
	for i, r := range rs {
		if i != delAt && r.status != 202 && r.status != 404 {
			t.Errorf("build %d: %v", i, r)
		}
	}
	srv.Wait()
	for _, path := range []string{env, env + "/builds"} {
		if r := tg.call(t, "GET", path, ws.APIKey, nil); r.status != 404 {
			t.Errorf("GET %s after delete: %d %s", path, r.status, r.body)
		}
	}
	var list listPage
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/computer-environments", ws.APIKey, nil).decode(t, &list)
	for _, e := range list.Items {
		if strings.HasSuffix(env, "/"+fmt.Sprint(e["id"])) {
			t.Errorf("deleted environment still listed")
		}
	}
}

package projectopstest_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func TestLoadSeedFile(t *testing.T) {
	t.Parallel()
	seed, err := projectopstest.LoadSeed(filepath.Join("testdata", "seed.json"))
	if err != nil {
		t.Fatal(err)
	}
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithSeed(seed))
	want := projectopstest.Workspace{OrganizationID: "org_acme", UserID: "usr_alice", ProjectID: "prj_web",
		APIKeyID: "key_alice", APIKey: "sk_test_alice_0123456789"}
	if got := srv.Default(); got != want {
		t.Errorf("Default() = %#v, want %#v", got, want)
	}
	tg := inproc(srv)
	var me catalog.Me
	tg.call(t, "GET", "/me", "sk_test_alice_0123456789", nil).decode(t, &me)
	if me.ID != "usr_alice" || me.Plan != "team" {
		t.Errorf("me = %+v", me)
	}
	tg.call(t, "GET", "/me", "sk_test_old_0123456789", nil).wantError(t, shared.CodeUnauthorized)
	tg.call(t, "GET", "/me", "sk_test_gina_0123456789", nil).wantError(t, shared.CodeForbidden)
	// Bob is a project guest of prj_web: reads work, writes do not.
	var page shared.Page[hosts.Host]
	tg.call(t, "GET", "/projects/prj_web/hosts", "sk_test_bob_0123456789", nil).decode(t, &page)
	if len(page.Items) != 2 || page.Items[1].ServerCount != 1 || page.Items[1].ModelID != "openai/gpt-5" {
		t.Errorf("hosts = %+v", page.Items)
	}
	tg.call(t, "POST", "/projects/prj_web/hosts", "sk_test_bob_0123456789",
		map[string]any{"name": "x", "template": "codex"}).wantError(t, shared.CodeForbidden)
	tg.call(t, "GET", "/projects/prj_web/hosts", "sk_test_hank_0123456789", nil).wantError(t, shared.CodeNotFound)
	tg.call(t, "DELETE", "/projects/prj_web/hosts/hst_custom", "sk_test_alice_0123456789", nil).wantError(t, shared.CodeValidation)
	var sessions shared.Page[catalog.ChatSession]
	tg.call(t, "GET", "/chat-sessions", "sk_test_alice_0123456789", nil).decode(t, &sessions)
	var ids []string
	for _, s := range sessions.Items {
		ids = append(ids, s.ID)
	}
	if diff := cmp.Diff([]string{"cs_team", "cs_alice_1"}, ids); diff != "" {
		t.Errorf("sessions (-want +got):\n%s", diff)
	}
}

func TestSeedErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, json, wantErr string
	}{
		{"unknown field", `{"organisations":[]}`, "unknown field"},
		{"malformed", `{"organizations":[`, "parse seed: line 1, column 19: the input ends before its JSON value does"},
		{"trailing comma", "{\n  \"organizations\": [{\"id\":\"o\",},]\n}", "parse seed: line 2, column 31: invalid character '}'"},
		{"wrong type", `{"organizations":[{"id":"o","plan":5}]}`, `line 1, column 37: field "organizations.plan" must be a string, not a number`},
		{"unknown top-level field", `{"organisations":[]}`, `parse seed: line 1, column 2: unknown field "organisations"`},
		{"trailing", `{} {}`, "trailing"},
		{"bad org ref", `{"organizations":[{"id":"org_a","name":"A"}],"users":[{"organizationId":"org_b","role":"owner"}]}`, `users[0]: user: organization "org_b" not found`},
		{"bad role", `{"organizations":[{"id":"org_a","name":"A"}],"users":[{"organizationId":"org_a","role":"boss"}]}`, "users[0]"},
		{"key prefix", `{"organizations":[{"id":"org_a","name":"A"}],"users":[{"id":"u","organizationId":"org_a","role":"owner"}],"apiKeys":[{"userId":"u","secret":"pk_123"}]}`, "apiKeys[0]: API key: secret must start with sk_"},
		{"duplicate id", `{"organizations":[{"id":"org_a","name":"A"},{"id":"org_a","name":"B"}]}`, `organizations[1]: organization: id "org_a" already exists`},
		{"host template", `{"organizations":[{"id":"o","name":"A"}],"projects":[{"id":"p","organizationId":"o","name":"P"}],"hosts":[{"projectId":"p","name":"h","template":"nope"}]}`, "hosts[0]"},
		{"host project", `{"hosts":[{"projectId":"p","name":"h","template":"claude"}]}`, `hosts[0]: host: project "p" not found`},
		{"stdio with url", `{"organizations":[{"id":"o","name":"A"}],"projects":[{"id":"p","organizationId":"o","name":"P"}],"servers":[{"projectId":"p","name":"s","transportType":"stdio","url":"http://x"}]}`, "servers[0]"},
		{"chatbox host", `{"organizations":[{"id":"o","name":"A"}],"projects":[{"id":"p","organizationId":"o","name":"P"}],"chatboxes":[{"projectId":"p","name":"c","hostId":"h"}]}`, "chatboxes[0]"},
		{"suite tests without servers", `{"organizations":[{"id":"o","name":"A"}],"projects":[{"id":"p","organizationId":"o","name":"P"}],"evalSuites":[{"projectId":"p","name":"s","model":"openai/gpt-4o-mini","tests":[{"title":"t","steps":[{"id":"a","kind":"prompt","prompt":"hi"}]}]}]}`, "evalSuites[0]: eval suite \"s\": serverIds"},
		{"suite model", `{"organizations":[{"id":"o","name":"A"}],"projects":[{"id":"p","organizationId":"o","name":"P"}],"servers":[{"id":"v","projectId":"p","name":"v","url":"http://x"}],"evalSuites":[{"projectId":"p","name":"s","serverIds":["v"],"model":"nope/model","tests":[{"title":"t","steps":[{"id":"a","kind":"prompt","prompt":"hi"}]}]}]}`, "evalSuites[0]: eval suite \"s\": model"},
		{"suite step", `{"organizations":[{"id":"o","name":"A"}],"projects":[{"id":"p","organizationId":"o","name":"P"}],"servers":[{"id":"v","projectId":"p","name":"v","url":"http://x"}],"evalSuites":[{"projectId":"p","name":"s","serverIds":["v"],"model":"openai/gpt-4o-mini","tests":[{"title":"t","steps":[{"id":"a","kind":"dance"}]}]}]}`, "evalSuites[0]: eval suite \"s\": tests[0].steps[0]"},
		{"member other org", `{"organizations":[{"id":"o","name":"A"},{"id":"o2","name":"B"}],"users":[{"id":"u","organizationId":"o2","role":"member"}],"projects":[{"organizationId":"o","name":"P","members":[{"userId":"u","role":"member"}]}]}`, "projects[0]: project: members[0]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), "seed.json")
			if err := os.WriteFile(path, []byte(tt.json), 0o600); err != nil {
				t.Fatal(err)
			}
			seed, err := projectopstest.LoadSeed(path)
			if err == nil {
				var srv *projectopstest.Server
				srv, err = projectopstest.NewServer(projectopstest.WithSeed(seed))
				if err == nil {
					srv.Close()
				}
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("err = %v, want it to contain %q", err, tt.wantErr)
			}
		})
	}
	if _, err := projectopstest.LoadSeed(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file: want error")
	}
}

func TestDemoSeed(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithSeed(projectopstest.DemoSeed()))
	ws := srv.Default()
	if ws.APIKey != projectopstest.DemoOwnerKey || ws.ProjectID != "prj_demo" {
		t.Errorf("Default() = %#v", ws)
	}
	tg := inproc(srv)
	var projects shared.Page[catalog.Project]
	tg.call(t, "GET", "/projects", projectopstest.DemoMemberKey, nil).decode(t, &projects)
	if len(projects.Items) != 1 || projects.Items[0].ID != "prj_demo" || projects.Items[0].Role != "member" {
		t.Errorf("member projects = %+v", projects.Items)
	}
	tg.call(t, "GET", "/me", projectopstest.DemoGuestKey, nil).wantError(t, shared.CodeForbidden)
	var boxes shared.Page[catalog.Chatbox]
	tg.call(t, "GET", "/projects/prj_demo/chatboxes", projectopstest.DemoOwnerKey, nil).decode(t, &boxes)
	if len(boxes.Items) != 1 || boxes.Items[0].HostName != "Claude" {
		t.Errorf("chatboxes = %+v", boxes.Items)
	}
	var sessions shared.Page[catalog.ChatSession]
	tg.call(t, "GET", "/chat-sessions", projectopstest.DemoOwnerKey, nil).decode(t, &sessions)
	if len(sessions.Items) != 2 {
		t.Errorf("sessions = %+v", sessions.Items)
	}
	// The saved stdio server is not running, and nothing starts it: the
	// demo keys are public.
	tg.call(t, "POST", "/projects/prj_demo/servers/srv_filesystem/tools/call", projectopstest.DemoMemberKey,
		map[string]any{"toolName": "write_file", "parameters": map[string]any{"path": t.TempDir() + "/x", "content": "hi"}}).
		wantError(t, shared.CodeServerUnreachable)
}

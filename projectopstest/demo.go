package projectopstest

import (
	"time"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
)

// Demo workspace keys. They are fixed so that a standalone demo server is
// reproducible; never use them anywhere but against the double.
const (
	DemoOwnerKey  = "sk_demo_owner_0000000000000000"
	DemoMemberKey = "sk_demo_member_000000000000000"
	DemoGuestKey  = "sk_demo_guest_0000000000000000"
)

// DemoSeed returns the documented demo workspace served by `projectops
// serve` without --seed:
//
//   - organization org_demo ("Demo Organization");
//   - users usr_owner (owner), usr_member (member) and usr_guest
//     (organization guest: every API call answers 403), each with a key
//     (DemoOwnerKey, DemoMemberKey, DemoGuestKey);
//   - project prj_demo, where usr_member is a project member;
//   - servers srv_everything (http) and srv_filesystem (stdio), saved but
//     not running, and srv_demo: DemoMCPServer served in process, so every
//     server operation works out of the box;
//   - hosts hst_claude (template claude, dark) and hst_chatgpt (template
//     chatgpt);
//   - chatbox cbx_support publishing hst_claude with srv_everything;
//   - an eval suite evs_smoke on srv_demo (referencing hst_claude, model
//     openai/gpt-4o-mini) with three tests: a toolCall of echo, a prompt
//     naming echo with message=hi, and a toolCall of add, each checked by
//     a toolCalledWith assertion; `projectops eval run --project prj_demo
//     --suite evs_smoke --wait` passes against `projectops serve`;
//   - chat sessions: two personal to usr_owner, one shared with prj_demo.
func DemoSeed() *Seed {
	t0 := time.Date(2026, 7, 1, 9, 0, 0, 0, time.UTC)
	return &Seed{
		Organizations: []OrganizationSpec{{ID: "org_demo", Name: "Demo Organization", Plan: "team"}},
		Users: []UserSpec{
			{ID: "usr_owner", OrganizationID: "org_demo", Role: RoleOwner, Email: "owner@demo.test", Name: "Olive Owner"},
			{ID: "usr_member", OrganizationID: "org_demo", Role: RoleMember, Email: "member@demo.test", Name: "Max Member"},
			{ID: "usr_guest", OrganizationID: "org_demo", Role: RoleGuest, Email: "guest@demo.test", Name: "Gus Guest"},
		},
		Projects: []ProjectSpec{{ID: "prj_demo", OrganizationID: "org_demo", Name: "Demo Project",
			Description: "A project to try the API against", Icon: "rocket",
			Members: []MemberSpec{{UserID: "usr_member", Role: RoleMember}}}},
		APIKeys: []APIKeySpec{
			{ID: "key_owner", UserID: "usr_owner", Name: "demo owner", Secret: DemoOwnerKey},
			{ID: "key_member", UserID: "usr_member", Name: "demo member", Secret: DemoMemberKey},
			{ID: "key_guest", UserID: "usr_guest", Name: "demo guest", Secret: DemoGuestKey},
		},
		Servers: []ServerSpec{
			{ID: "srv_everything", ProjectID: "prj_demo", Name: "everything", TransportType: "http", URL: "http://127.0.0.1:3001/mcp"},
			// Its command is never a real one: the demo's keys are public,
			// and a runnable filesystem server would let any of them read
			// and write the host's files (and fetch a package to do it).
			{ID: "srv_filesystem", ProjectID: "prj_demo", Name: "filesystem", TransportType: "stdio",
				Command: "projectops-demo-not-running", Args: []string{"filesystem", "/tmp"}},
			{ID: "srv_demo", ProjectID: "prj_demo", Name: "demo", MCPServer: DemoMCPServer()},
		},
		Hosts: []HostSpec{
			{ID: "hst_claude", ProjectID: "prj_demo", Name: "Claude", Template: hosts.TemplateClaude, Theme: hosts.ThemeDark},
			{ID: "hst_chatgpt", ProjectID: "prj_demo", Name: "ChatGPT", Template: hosts.TemplateChatGPT},
		},
		Chatboxes: []ChatboxSpec{{ID: "cbx_support", ProjectID: "prj_demo", Name: "Support bot",
			Description: "Answers questions with the everything server", Mode: "anyone_with_link",
			HostID: "hst_claude", ServerIDs: []string{"srv_everything"},
			SystemPrompt: "You are a helpful support assistant.", RequireToolApproval: true}},
		ChatSessions: []ChatSessionSpec{
			{ID: "cs_welcome", OwnerUserID: "usr_owner", ProjectID: "prj_demo", Title: "Welcome chat", CreatedAt: t0, LastActivityAt: t0.Add(2 * time.Hour)},
			{ID: "cs_shared", ProjectID: "prj_demo", Title: "Team triage", CreatedAt: t0, LastActivityAt: t0.Add(time.Hour), Pinned: true},
			{ID: "cs_archived", OwnerUserID: "usr_owner", Title: "Old experiment", Status: "archived", CreatedAt: t0, LastActivityAt: t0},
		},
		EvalSuites: []EvalSuiteSpec{{ID: "evs_smoke", ProjectID: "prj_demo", Name: "Smoke tests",
			Description: "Checks the demo MCP server's tools", ServerIDs: []string{"srv_demo"}, HostID: "hst_claude",
			Model: "openai/gpt-4o-mini", Tests: []evals.Test{
				{Title: "echo answers", Steps: []evals.Step{
					evals.ToolCallStep("call", "echo", map[string]any{"message": "hello"}),
					evals.AssertCalledWith("check", "echo", map[string]any{"message": "hello"}),
				}},
				{Title: "the model picks echo", Steps: []evals.Step{
					evals.PromptStep("ask", "Use the echo tool with message=hi"),
					evals.AssertCalledWith("check", "echo", map[string]any{"message": "hi"}),
				}},
				{Title: "add sums", Steps: []evals.Step{
					evals.ToolCallStep("call", "add", map[string]any{"a": 2, "b": 3}),
					evals.AssertCalledWith("check", "add", map[string]any{"a": 2, "b": 3}),
				}},
			}}},
	}
}

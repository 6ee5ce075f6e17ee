package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// demoAPI starts the demo double on loopback and points the SDK's
// environment at it as the demo owner.
func demoAPI(t *testing.T) *projectopstest.Server {
	t.Helper()
	srv := projectopstest.NewTestServer(t, projectopstest.WithSeed(projectopstest.DemoSeed()), projectopstest.WithRateLimit(0, 0))
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PROJECTOPS_BASE_URL", base)
	t.Setenv("PROJECTOPS_API_KEY", projectopstest.DemoOwnerKey)
	return srv
}

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(context.Background(), args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestExportAndDiff(t *testing.T) {
	demoAPI(t)
	dir := t.TempDir()
	oldPath := filepath.Join(dir, "old.json")
	code, _, stderr := runCLI(t, "export", "--project", "prj_demo", "--server", "srv_demo", "-o", oldPath)
	if code != 0 {
		t.Fatalf("export: %d %s", code, stderr)
	}
	code, stdout, _ := runCLI(t, "export", "--project", "prj_demo", "--server", "srv_demo")
	if code != 0 {
		t.Fatalf("export to stdout: %d", code)
	}
	var snap servers.ExportSnapshot
	if err := json.Unmarshal([]byte(stdout), &snap); err != nil || snap.ServerID != "srv_demo" || len(snap.Tools) != 3 || len(snap.Prompts) != 2 || len(snap.Resources) != 2 {
		t.Fatalf("snapshot = %+v, %v", snap, err)
	}
	newPath := filepath.Join(dir, "new.json")
	if err := os.WriteFile(newPath, []byte(stdout), 0o644); err != nil {
		t.Fatal(err)
	}
	// Same server exported twice: equal, exit 0, nothing printed.
	if code, out, errs := runCLI(t, "diff", oldPath, newPath); code != 0 || out != "" {
		t.Fatalf("diff of equal snapshots: %d %q %q", code, out, errs)
	}
	// Change a tool's schema and drop a prompt: exit 1 with a readable diff.
	snap.Tools[0].InputSchema = map[string]any{"type": "object", "properties": map[string]any{"message": map[string]any{"type": "integer"}}}
	snap.Tools = append(snap.Tools, &mcp.Tool{Name: "brand_new", InputSchema: map[string]any{"type": "object"}})
	snap.Prompts = snap.Prompts[:1]
	b, _ := json.Marshal(snap)
	if err := os.WriteFile(newPath, b, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "diff", oldPath, newPath)
	if code != 1 {
		t.Fatalf("diff exit = %d, want 1", code)
	}
	for _, want := range []string{`+ tool "brand_new"`, `~ tool "add"`, `- prompt "review_code"`} {
		if !strings.Contains(out, want) {
			t.Errorf("diff output lacks %q:\n%s", want, out)
		}
	}
	// Errors are exit 2.
	// A missing file is a data error: exit 2, without the usage pointer.
	if code, _, stderr := runCLI(t, "diff", oldPath, filepath.Join(dir, "missing.json")); code != 2 ||
		strings.Contains(stderr, "--help") {
		t.Errorf("missing file: exit %d, %q", code, stderr)
	}
	notSnap := filepath.Join(dir, "other.json")
	_ = os.WriteFile(notSnap, []byte(`{"items":[]}`), 0o644)
	if code, _, _ := runCLI(t, "diff", oldPath, notSnap); code != 2 {
		t.Errorf("not a snapshot: exit %d", code)
	}
	if code, _, _ := runCLI(t, "diff", oldPath); code != 2 {
		t.Errorf("one argument: exit %d", code)
	}
	// Export errors: an API error and a missing flag are both 2.
	if code, _, errs := runCLI(t, "export", "--project", "prj_demo", "--server", "srv_nope"); code != 2 || !strings.Contains(errs, "NOT_FOUND") {
		t.Errorf("unknown server: %d %s", code, errs)
	}
	if code, _, _ := runCLI(t, "export", "--project", "prj_demo"); code != 2 {
		t.Errorf("missing --server: exit %d", code)
	}
}

func TestToolsCommands(t *testing.T) {
	demoAPI(t)
	code, out, errs := runCLI(t, "tools", "list", "--project", "prj_demo", "--server", "srv_demo")
	if code != 0 {
		t.Fatalf("tools list: %d %s", code, errs)
	}
	var tools []map[string]any
	if err := json.Unmarshal([]byte(out), &tools); err != nil || len(tools) != 3 || tools[0]["inputSchema"] == nil {
		t.Fatalf("tools list output: %v\n%s", err, out)
	}
	code, out, errs = runCLI(t, "tools", "call", "--project", "prj_demo", "--server", "srv_demo", "--name", "echo", "--args", `{"message":"hi"}`)
	if code != 0 || !strings.Contains(out, `"text": "Echo: hi"`) {
		t.Fatalf("tools call echo: %d %s %s", code, out, errs)
	}
	// The same call with the tool name and arguments given positionally.
	code, out, errs = runCLI(t, "tools", "call", "--project", "prj_demo", "--server", "srv_demo", "echo", `{"message":"yo"}`)
	if code != 0 || !strings.Contains(out, `"text": "Echo: yo"`) {
		t.Fatalf("tools call echo (positional): %d %s %s", code, out, errs)
	}
	if code, _, errs := runCLI(t, "tools", "call", "--project", "prj_demo", "--server", "srv_demo", "echo", "{}", "extra"); code != 2 || !strings.Contains(errs, `"extra"`) {
		t.Errorf("surplus positional argument: exit %d %s", code, errs)
	}
	argFile := filepath.Join(t.TempDir(), "args.json")
	_ = os.WriteFile(argFile, []byte(`{"dividend":1,"divisor":0}`), 0o644)
	code, out, errs = runCLI(t, "tools", "call", "--project", "prj_demo", "--server", "srv_demo", "--name", "divide", "--args", "@"+argFile)
	if code != 1 || !strings.Contains(out, `"isError": true`) || !strings.Contains(errs, "isError") {
		t.Errorf("tool error: %d %s %s", code, out, errs)
	}
	if code, _, _ := runCLI(t, "tools", "call", "--project", "prj_demo", "--server", "srv_demo", "--name", "echo", "--args", `[1]`); code != 2 {
		t.Errorf("bad --args: exit %d", code)
	}
	if code, _, _ := runCLI(t, "tools", "frobnicate"); code != 2 {
		t.Errorf("unknown subcommand: exit %d", code)
	}
	t.Setenv("PROJECTOPS_API_KEY", "")
	if code, _, errs := runCLI(t, "tools", "list", "--project", "prj_demo", "--server", "srv_demo"); code != 2 || !strings.Contains(errs, "PROJECTOPS_API_KEY") {
		t.Errorf("no key: %d %s", code, errs)
	}
}

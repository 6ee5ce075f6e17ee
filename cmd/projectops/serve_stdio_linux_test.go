package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/projectops/projectops-go/internal/proctest"
)

// stubbornPeerEnv makes the test binary a stdio MCP server stuck in its
// shutdown: it ignores SIGTERM, starts a helper process (in its process
// group) and lingers after its stdin closes.
const stubbornPeerEnv = "PROJECTOPS_TEST_STUBBORN_PEER"

func init() {
	if os.Getenv(stubbornPeerEnv) == "" {
		return
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "stubborn", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	proctest.ServeStubborn(s, "")
}

// "projectops serve" stopped with Ctrl-C leaves none of the stdio MCP
// servers it started running once it has exited, nor a process one of
// them started, even from a server that ignores its stdin closing and
// SIGTERM: nothing would be left to end them later.
func TestServeInterruptLeavesNoStdioServers(t *testing.T) {
	token := fmt.Sprintf("stubborn%d", time.Now().UnixNano())
	seed := fmt.Sprintf(`{
  "organizations": [{"id": "org_z", "name": "Z"}],
  "users": [{"id": "usr_z", "organizationId": "org_z", "role": "owner"}],
  "projects": [{"id": "prj_z", "organizationId": "org_z", "name": "Z"}],
  "apiKeys": [{"id": "key_z", "userId": "usr_z", "secret": "sk_stubborn_serve_key_0001"}],
  "servers": [{"id": "srv_z", "projectId": "prj_z", "name": "stubborn", "transportType": "stdio",
    "command": %q, "args": ["-test.run=^$"], "env": {%q: "1", "PROJECTOPS_TEST_TOKEN": %q}}]
}`, os.Args[0], stubbornPeerEnv, token)
	path := filepath.Join(t.TempDir(), "seed.json")
	if err := os.WriteFile(path, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), serveArgsEnv+"="+strings.Join([]string{"serve", "--json", "--addr", "127.0.0.1:0", "--seed", path}, "\x1f"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	var first struct {
		BaseURL string `json:"baseUrl"`
	}
	sc := bufio.NewScanner(stdout)
	if !sc.Scan() || json.Unmarshal(sc.Bytes(), &first) != nil || first.BaseURL == "" {
		go func() { exited <- cmd.Wait() }()
		t.Fatalf("no base URL from serve: %q", sc.Text())
	}
	go func() {
		for sc.Scan() { // drain, so serve never blocks on stdout
		}
		exited <- cmd.Wait() // after the reading: Wait closes the pipe
	}()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, first.BaseURL+"/projects/prj_z/servers/srv_z/tools", strings.NewReader("{}"))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer sk_stubborn_serve_key_0001")
	req.Header.Set("Content-Type", "application/json")
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("tools: %d", resp.StatusCode)
	}
	if p := proctest.With(t, token); len(p) < 2 {
		t.Fatalf("the stdio server and its helper are not both running: %v", p)
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	if err := <-exited; err != nil {
		t.Errorf("serve after Ctrl-C: %v", err)
	}
	exited <- nil // for the cleanup
	left := proctest.With(t, token)
	for _, p := range left {
		var pid int
		_, _ = fmt.Sscan(p, &pid)
		_ = syscall.Kill(pid, syscall.SIGKILL)
	}
	if len(left) > 0 {
		t.Errorf("projectops serve exited leaving stdio MCP server processes running (orphaned): %v", left)
	}
}

package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// serve --json prints its startup object as one line, as a Python
// json.loads(proc.stdout.readline()) or Node's readline reads it while
// the double runs.
func TestServeJSONIsOneLine(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	stderr := &lockedBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", "--json", "--addr", "127.0.0.1:0"}, pw, stderr)
		pw.Close()
	}()
	first := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(pr).ReadString('\n')
		first <- line
		_, _ = io.Copy(io.Discard, pr) // never block the command on stdout
	}()
	var line string
	select {
	case line = <-first:
	case <-time.After(10 * time.Second):
		t.Fatal("serve --json printed no line")
	}
	var out struct {
		BaseURL string `json:"baseUrl"`
		APIKeys []struct {
			Role, UserID, Key string
		} `json:"apiKeys"`
	}
	if err := json.Unmarshal([]byte(line), &out); err != nil || !strings.HasSuffix(line, "}\n") ||
		out.BaseURL == "" || len(out.APIKeys) == 0 || out.APIKeys[0].Key == "" {
		t.Fatalf("first line %q is not the whole startup object: %v", line, err)
	}
	if status, _ := getMe(t, out.BaseURL, out.APIKeys[0].Key); status != http.StatusOK {
		t.Errorf("GET /me with the printed key: %d", status)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Errorf("exit %d: %s", c, stderr.String())
	}
}

// tunnel --json, which also goes on running, prints its object as one line.
func TestTunnelJSONIsOneLine(t *testing.T) {
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "ok") }))
	defer local.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"tunnel", "--json", "--project", "prj_demo", "--name", "laptop", "--to", local.URL + "/mcp"}, &stdout, &stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "tunnel connected") {
		if time.Now().After(deadline) {
			t.Fatalf("not connected; stderr:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if c := <-done; c != 0 {
		t.Fatalf("exit %d; stderr:\n%s", c, stderr.String())
	}
	line := stdout.String()
	var out struct{ ServerID, Name, URL string }
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") || json.Unmarshal([]byte(line), &out) != nil ||
		out.ServerID == "" || !strings.Contains(out.URL, "?k=") {
		// Not quoted: the URL holds the tunnel's secret.
		t.Errorf("stdout is not one line of JSON with the tunnel (%d newlines)", strings.Count(line, "\n"))
	}
}

package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestTunnelCommand(t *testing.T) {
	demoAPI(t)
	local := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		io.WriteString(w, r.Method+" "+r.URL.RequestURI()+" "+string(b))
	}))
	defer local.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr lockedBuffer
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, []string{"tunnel", "--project", "prj_demo", "--name", "laptop", "--to", local.URL + "/mcp?x=1&tok=LOCALTOKEN"}, &stdout, &stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stderr.String(), "tunnel connected") {
		if time.Now().After(deadline) {
			t.Fatalf("not connected; stderr:\n%s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	publicURL := strings.TrimSpace(stdout.String())
	k := publicURL[strings.Index(publicURL, "?k=")+3:]
	resp, err := http.Post(publicURL, "application/json", strings.NewReader(`{"a":1}`))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || string(b) != `POST /mcp?x=1&tok=LOCALTOKEN {"a":1}` {
		t.Fatalf("through the tunnel: %d %q", resp.StatusCode, b)
	}
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Fatalf("exit %d; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("tunnel did not stop on interrupt")
	}
	if !strings.Contains(stderr.String(), "WARNING") || !strings.Contains(stderr.String(), "tunnel closed") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	// The local URL's query may hold a token too: the line that names it
	// leaves it out.
	if strings.Contains(stderr.String(), "LOCALTOKEN") || !strings.Contains(stderr.String(), "/mcp?…") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if strings.Contains(stderr.String(), k) || strings.Count(stdout.String(), k) != 1 {
		t.Errorf("the secret was printed more than once:\n%s\n%s", stdout.String(), stderr.String())
	}
	// Interrupting revoked the tunnel.
	resp, err = http.Get(publicURL)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("after exit: %d", resp.StatusCode)
	}
}

func TestTunnelCommandUsage(t *testing.T) {
	t.Setenv("PROJECTOPS_API_KEY", "")
	for _, args := range [][]string{
		{"tunnel"}, {"tunnel", "--project", "p", "--name", "n"},
		{"tunnel", "--project", "p", "--name", "n", "--to", "127.0.0.1:3000"},
		{"tunnel", "--project", "p", "--name", "n", "--to", "http://x/mcp", "extra"},
	} {
		if code, _, _ := runCLI(t, args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

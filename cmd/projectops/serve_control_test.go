package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// serveJSON runs "projectops serve --json args..." until the test ends and
// returns its one JSON line, decoded into a map so that a key it lacks is
// seen as lacking.
func serveJSON(t *testing.T, args ...string) map[string]any {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, stderr, code := launchServe(ctx, append([]string{"--json", "--addr", "127.0.0.1:0"}, args...)...)
	t.Cleanup(func() {
		cancel()
		if c := <-code; c != 0 {
			t.Errorf("serve exited %d: %s", c, stderr.String())
		}
	})
	br := bufio.NewReader(pr)
	line, err := br.ReadString('\n')
	go func() { _, _ = io.Copy(io.Discard, br) }() // never block the command on stdout
	if err != nil {
		t.Fatalf("serve printed no line (%v): %s", err, stderr.String())
	}
	var out map[string]any
	if err := json.Unmarshal([]byte(line), &out); err != nil {
		t.Fatalf("JSON line %q: %v", line, err)
	}
	return out
}

// httpDo sends method url with a JSON body ("" for none) and key ("" for
// none), returning the status and body.
func httpDo(t *testing.T, method, url, body, key string) (int, string) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// serve --control prints controlUrl on its --json line, and a client that
// read it there sets a fault and sees it, and the request log, over HTTP.
func TestServeControlJSON(t *testing.T) {
	t.Parallel()
	out := serveJSON(t, "--control", "--rate-limit", "0")
	base, _ := out["baseUrl"].(string)
	ctl, _ := out["controlUrl"].(string)
	if want := strings.TrimSuffix(base, "/api/v1") + "/_projectops"; ctl != want {
		t.Fatalf("controlUrl = %q, want %q (line %v)", ctl, want, out)
	}
	if s, b := httpDo(t, "POST", ctl+"/faults", `{"route":"GET /me","fault":{"status":503,"times":1}}`, ""); s != http.StatusNoContent {
		t.Fatalf("POST faults = %d %s", s, b)
	}
	if s, b := httpDo(t, "GET", base+"/me", "", projectopstest.DemoOwnerKey); s != http.StatusServiceUnavailable {
		t.Fatalf("faulted GET /me = %d %s, want 503", s, b)
	}
	if s, b := httpDo(t, "GET", base+"/me", "", projectopstest.DemoOwnerKey); s != http.StatusOK {
		t.Fatalf("GET /me = %d %s, want 200", s, b)
	}
	s, b := httpDo(t, "GET", ctl+"/requests", "", "")
	if s != http.StatusOK || strings.Count(b, `"route":"GET /me"`) != 2 || strings.Contains(b, "_projectops") {
		t.Fatalf("GET requests = %d %s, want the two GET /me and no control request", s, b)
	}
}

// Without --control the JSON line has no controlUrl and the control paths
// are the service's 404.
func TestServeWithoutControl(t *testing.T) {
	t.Parallel()
	out := serveJSON(t)
	if _, ok := out["controlUrl"]; ok {
		t.Fatalf("JSON line %v has controlUrl without --control", out)
	}
	base, _ := out["baseUrl"].(string)
	if s, b := httpDo(t, "GET", strings.TrimSuffix(base, "/api/v1")+"/_projectops/routes", "", ""); s != http.StatusNotFound {
		t.Fatalf("GET /_projectops/routes = %d %s, want 404", s, b)
	}
}

// The human output names the control URL on its second line, with
// --control only.
func TestServeControlText(t *testing.T) {
	t.Parallel()
	base, lines, _, _ := serve(t, "--addr", "127.0.0.1:0", "--control")
	got := <-lines
	if want := "control API (no key needed) at " + strings.TrimSuffix(base, "/api/v1") + "/_projectops"; !strings.HasSuffix(got, want) {
		t.Fatalf("second line %q, want it to end %q", got, want)
	}
	_, lines, _, _ = serve(t, "--addr", "127.0.0.1:0")
	if got := <-lines; strings.Contains(got, "control") {
		t.Fatalf("second line %q without --control", got)
	}
}

// serve --control on an address other than loopback warns on stderr, in
// one line, that the control API needs no key; on loopback it does not.
func TestServeControlWarnsOffLoopback(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		addr string
		warn bool
	}{{"0.0.0.0:0", true}, {"127.0.0.1:0", false}, {"localhost:0", false}} {
		ctx, cancel := context.WithCancel(t.Context())
		pr, stderr, code := launchServe(ctx, "--json", "--control", "--addr", c.addr)
		br := bufio.NewReader(pr)
		_, err := br.ReadString('\n') // printed once listening, after any warning
		go func() { _, _ = io.Copy(io.Discard, br) }()
		cancel()
		if got := <-code; err != nil || got != 0 {
			t.Fatalf("serve --addr %s: exit %d, %v: %s", c.addr, got, err, stderr.String())
		}
		var warned []string
		for _, l := range strings.Split(stderr.String(), "\n") {
			if strings.Contains(l, "warning") {
				warned = append(warned, l)
			}
		}
		if c.warn && (len(warned) != 1 || !strings.Contains(warned[0], "--control on "+c.addr+", not a loopback address") ||
			!strings.Contains(warned[0], "no key")) {
			t.Errorf("serve --control --addr %s stderr:\n%s\nwant one warning line that it is not loopback", c.addr, stderr.String())
		}
		if !c.warn && len(warned) != 0 {
			t.Errorf("serve --control --addr %s warned: %q", c.addr, warned)
		}
	}
}

func TestLoopbackAddr(t *testing.T) {
	t.Parallel()
	for addr, want := range map[string]bool{
		"127.0.0.1:8080": true, "127.9.0.1:0": true, "[::1]:0": true, "localhost:0": true, "LOCALHOST:1": true,
		"0.0.0.0:8080": false, ":8080": false, "[::]:0": false, "192.168.1.2:80": false, "example.com:80": false, "nonsense": false,
	} {
		if got := loopbackAddr(addr); got != want {
			t.Errorf("loopbackAddr(%q) = %v, want %v", addr, got, want)
		}
	}
}

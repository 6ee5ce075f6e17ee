package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/projectopstest"
	"go.uber.org/goleak"
)

// serveArgsEnv, when set, makes the test binary the projectops program
// itself (main) with these arguments, separated by U+001F: a test that
// signals a real process (see serve_stdio_linux_test.go) starts it so.
// Plain test runs never set it.
const serveArgsEnv = "PROJECTOPS_TEST_MAIN_ARGS"

func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv(serveArgsEnv); ok {
		os.Args = append([]string{"projectops"}, strings.Split(args, "\x1f")...)
		main() // exits
	}
	goleak.VerifyTestMain(m)
}

// lockedBuffer is a bytes.Buffer safe to write from the command and read
// from the test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// launchServe runs "projectops serve args..." until ctx ends, returning
// its stdout (closed when the command returns), its stderr and its exit
// code.
func launchServe(ctx context.Context, args ...string) (*io.PipeReader, *lockedBuffer, <-chan int) {
	pr, pw := io.Pipe()
	stderr := &lockedBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, append([]string{"serve"}, args...), pw, stderr)
		pw.Close()
	}()
	return pr, stderr, code
}

// serve runs "projectops serve args..." until the test ends and returns the
// base URL it printed, every stdout line (as they come), and the exit code
// channel.
func serve(t *testing.T, args ...string) (string, <-chan string, <-chan int, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	pr, stderr, code := launchServe(ctx, args...)
	lines := make(chan string, 64)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(pr)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	t.Cleanup(func() {
		cancel()
		for range lines { // drain so the command never blocks on stdout
		}
		if t.Failed() {
			t.Logf("stderr:\n%s", stderr.String())
		}
	})
	select {
	case first, ok := <-lines:
		if !ok {
			t.Fatalf("serve exited early (code %d): %s", <-code, stderr.String())
		}
		_, base, found := strings.Cut(first, " at ")
		if !found || !strings.HasPrefix(base, "http://127.0.0.1:") || !strings.HasSuffix(base, "/api/v1") {
			t.Fatalf("first line %q has no base URL", first)
		}
		return base, lines, code, cancel
	case <-time.After(10 * time.Second):
		t.Fatal("serve printed nothing")
	}
	return "", nil, nil, nil
}

func getMe(t *testing.T, base, key string) (int, catalog.Me) {
	t.Helper()
	status, body := httpDo(t, "GET", base+"/me", "", key)
	var me catalog.Me
	if status == 200 {
		if err := json.Unmarshal([]byte(body), &me); err != nil {
			t.Fatal(err)
		}
	}
	return status, me
}

// until collects lines up to and including the one containing want.
func until(t *testing.T, lines <-chan string, want string) []string {
	t.Helper()
	var got []string
	for l := range lines {
		got = append(got, l)
		if strings.Contains(l, want) {
			return got
		}
	}
	t.Fatalf("output ended before %q; got %q", want, got)
	return nil
}

func TestServeSeedFile(t *testing.T) {
	t.Parallel()
	base, lines, code, stop := serve(t, "--addr", "127.0.0.1:0", "--seed", "testdata/seed.json")
	if status, me := getMe(t, base, "sk_local_dev_key_0001"); status != 200 || me.ID != "usr_dev" {
		t.Errorf("GET /me: %d %+v", status, me)
	}
	if status, _ := getMe(t, base, "sk_local_revoked_0003"); status != 401 {
		t.Errorf("revoked key: %d", status)
	}
	stop()
	if c := <-code; c != 0 {
		t.Errorf("exit code %d after cancel", c)
	}
	out := strings.Join(rest(lines), "\n")
	for _, want := range []string{"sk_local_dev_key_0001", "sk_local_viewer_key_0002", "usr_dev"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk_local_revoked_0003") {
		t.Errorf("revoked key printed:\n%s", out)
	}
}

// rest collects the lines left until stdout closes (the command ended).
func rest(lines <-chan string) []string {
	var got []string
	for l := range lines {
		got = append(got, l)
	}
	return got
}

func TestServeDemoWorkspace(t *testing.T) {
	t.Parallel()
	base, lines, code, stop := serve(t, "--addr", "127.0.0.1:0", "--rate-limit", "0")
	out := strings.Join(until(t, lines, projectopstest.DemoGuestKey), "\n")
	for _, key := range []string{projectopstest.DemoOwnerKey, projectopstest.DemoMemberKey, projectopstest.DemoGuestKey} {
		if !strings.Contains(out, key) {
			t.Errorf("output lacks %s:\n%s", key, out)
		}
	}
	if status, me := getMe(t, base, projectopstest.DemoOwnerKey); status != 200 || me.ID != "usr_owner" {
		t.Errorf("owner: %d %+v", status, me)
	}
	if status, _ := getMe(t, base, projectopstest.DemoGuestKey); status != 403 {
		t.Errorf("guest: %d, want 403", status)
	}
	stop()
	if c := <-code; c != 0 {
		t.Errorf("exit code %d", c)
	}
}

// --allow-origin lets a browser app on that origin call the double; any
// other origin is refused, as the service refuses it.
func TestServeAllowOrigin(t *testing.T) {
	t.Parallel()
	const app = "http://localhost:5173"
	base, lines, code, stop := serve(t, "--addr", "127.0.0.1:0", "--rate-limit", "0", "--allow-origin", app)
	until(t, lines, projectopstest.DemoGuestKey)
	for origin, want := range map[string]int{app: http.StatusOK, "http://localhost:3000": http.StatusForbidden} {
		req, _ := http.NewRequest("GET", base+"/me", nil)
		req.Header.Set("Authorization", "Bearer "+projectopstest.DemoOwnerKey)
		req.Header.Set("Origin", origin)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != want || (want == http.StatusOK) != (res.Header.Get("Access-Control-Allow-Origin") == origin) {
			t.Errorf("Origin %s: %d %v; want %d", origin, res.StatusCode, res.Header, want)
		}
	}
	stop()
	if c := <-code; c != 0 {
		t.Errorf("exit code %d", c)
	}
}

func TestRunUsageErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		args     []string
		wantCode int
		wantErr  string
	}{
		{"no command", nil, 2, "Usage:\n  projectops [flags]"},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`},
		{"help", []string{"help"}, 0, ""},
		{"serve help", []string{"serve", "-h"}, 0, "--seed"},
		{"bad flag", []string{"serve", "--port", "1"}, 2, "unknown flag: --port"},
		{"extra arg", []string{"serve", "now"}, 2, `unexpected argument "now"`},
		{"missing seed", []string{"serve", "--seed", "testdata/nope.json"}, 2, "read seed"},
		{"bad rate", []string{"serve", "--rate-limit", "-1"}, 2, "WithRateLimit"},
		{"bad origin", []string{"serve", "--allow-origin", "localhost:5173"}, 2, "WithAllowedOrigins"},
		{"bad addr", []string{"serve", "--addr", "256.0.0.1:99999"}, 2, "listen"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var stdout, stderr bytes.Buffer
			if got := run(t.Context(), tt.args, &stdout, &stderr); got != tt.wantCode {
				t.Errorf("exit code %d, want %d; stderr %s", got, tt.wantCode, stderr.String())
			}
			if !strings.Contains(stderr.String()+stdout.String(), tt.wantErr) {
				t.Errorf("output lacks %q: stdout %q stderr %q", tt.wantErr, stdout.String(), stderr.String())
			}
		})
	}
}

func TestServeRejectsBadSeed(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/seed.json"
	if err := os.WriteFile(path, []byte(`{"hosts":[{"projectId":"prj_x","name":"h","template":"claude"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	if code := run(t.Context(), []string{"serve", "--addr", "127.0.0.1:0", "--seed", path}, &stdout, &stderr); code != 2 {
		t.Fatalf("exit code %d", code)
	}
	// A seed's content is a data error: no pointer to --help.
	if !strings.Contains(stderr.String(), `hosts[0]: host: project "prj_x" not found`) || strings.Contains(stderr.String(), "--help") {
		t.Errorf("stderr %q", stderr.String())
	}
}

// --json prints apiKeys as an array, also when the seed has no usable key.
func TestServeJSONWithoutKeys(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/seed.json"
	seed := `{"organizations":[{"id":"o","name":"O"}],"users":[{"id":"u","organizationId":"o","role":"owner"}],` +
		`"apiKeys":[{"userId":"u","secret":"sk_revoked_key_000000","revoked":true}]}`
	if err := os.WriteFile(path, []byte(seed), 0o600); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	stdout, stderr := &lockedBuffer{}, &lockedBuffer{}
	code := make(chan int, 1)
	go func() {
		code <- run(ctx, []string{"serve", "--json", "--addr", "127.0.0.1:0", "--seed", path}, stdout, stderr)
	}()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(stdout.String(), "apiKeys") && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	cancel()
	if c := <-code; c != 0 {
		t.Errorf("exit %d: %s", c, stderr.String())
	}
	var out struct{ APIKeys []any }
	if err := json.Unmarshal([]byte(stdout.String()), &out); err != nil || out.APIKeys == nil || len(out.APIKeys) != 0 {
		t.Errorf("output %q: %v", stdout.String(), err)
	}
}

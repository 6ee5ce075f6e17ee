package projectops_test

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
)

// A caller's idempotency key on a write the service does not deduplicate
// (a tool call, a host create) must not let net/http re-send it: net/http
// replays a request carrying Idempotency-Key when a reused keep-alive
// connection fails after the request went out, so the write ran twice
// behind the retry rules' back (one attempt, the caller told it failed).
func TestCallerKeyIsNoLeaveToReplay(t *testing.T) {
	t.Parallel()
	var posts atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			posts.Add(1)
			_, _ = io.Copy(io.Discard, r.Body) // the write ran ...
			conn, _, err := http.NewResponseController(w).Hijack()
			if err == nil {
				_ = conn.Close() // ... and its answer is lost
			}
			return
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"usr_1","email":"a@example.com"}`)
	}))
	defer srv.Close()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_0000000000"),
		option.WithBaseURL(srv.URL+"/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func() error{
		"tool call": func() error {
			_, err := c.Servers.CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "t"},
				option.WithIdempotencyKey("caller-key-1"))
			return err
		},
		"host create": func() error {
			_, err := c.Hosts.Create(t.Context(), "prj_1", hosts.CreateParams{Name: "h", Template: "claude"},
				option.WithIdempotencyKey("caller-key-2"))
			return err
		},
	} {
		if _, err := c.Catalog.Me(t.Context()); err != nil { // a kept-alive connection to reuse
			t.Fatal(err)
		}
		posts.Store(0)
		err := write()
		if n := posts.Load(); n != 1 || err == nil {
			t.Errorf("%s: sent %d times, err %v; want once, and its lost answer an error", name, n, err)
		}
	}
}

// X-Idempotency-Key, net/http's other leave to re-send, cannot be set by
// an option either (per call or for the client): a tool call with it ran
// twice on a failed reused connection.
func TestXIdempotencyKeyHeaderRefused(t *testing.T) {
	t.Parallel()
	if _, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_0000000000"),
		option.WithHeader("X-Idempotency-Key", "k")); !errors.Is(err, projectops.ErrValidation) {
		t.Errorf("client header: %v, want a VALIDATION_ERROR", err)
	}
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_0000000000"),
		option.WithBaseURL("http://127.0.0.1:1/api/v1"), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Servers.CallTool(t.Context(), "prj_1", "srv_1", servers.CallToolParams{ToolName: "t"},
		option.WithHeader("x-idempotency-key", "k"))
	if !errors.Is(err, projectops.ErrValidation) {
		t.Errorf("call header: %v, want a VALIDATION_ERROR before anything is sent", err)
	}
}

// Package sdktest holds the fixtures the SDK's contract tests share: a
// double with a stepped clock and an SDK client on it, and assertions on
// *projectops.Error. It is imported by _test files only.
package sdktest

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

// T0 is the fixture clock's start: every timestamp the double writes is
// predictable.
var T0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// Fixture is a double (rate limiting off unless a test turns it on, clock
// stopped at T0) and an SDK client wired to it in process as the default
// workspace's owner.
type Fixture struct {
	Srv   *projectopstest.Server
	WS    projectopstest.Workspace
	C     *projectops.Client
	Clock *projectopstest.Clock
}

// Setup starts a fixture; opts are applied after the defaults, so they can
// turn the rate limit back on. The double closes with the test.
func Setup(t testing.TB, opts ...projectopstest.Option) *Fixture {
	t.Helper()
	clock := projectopstest.NewClock(T0)
	base := []projectopstest.Option{projectopstest.WithRateLimit(0, 0), projectopstest.WithClock(clock.Now)}
	if _, bench := t.(*testing.B); !bench {
		// The SDK's contract tests hold the double to the reference too;
		// benchmarks measure the double as it is used: unchecked.
		base = append(base, projectopstest.WithContractCheck(t))
	}
	srv := projectopstest.NewTestServer(t, append(base, opts...)...)
	f := &Fixture{Srv: srv, WS: srv.Default(), Clock: clock}
	f.C = f.Client(t)
	return f
}

// Client returns an SDK client on the double with fast retries; opts come
// last, so option.WithAPIKey switches identity.
func (f *Fixture) Client(t testing.TB, opts ...option.RequestOption) *projectops.Client {
	t.Helper()
	base := []option.RequestOption{option.WithRetryBackoff(time.Millisecond, 5*time.Millisecond)}
	c, err := f.Srv.NewClient(append(base, opts...)...)
	if err != nil {
		t.Fatalf("NewClient: %v", err)
	}
	return c
}

// User adds a user with an organization role and returns its id and a key.
func (f *Fixture) User(t testing.TB, orgID string, role projectopstest.Role, name string) (id, key string) {
	t.Helper()
	id = Must(t)(f.Srv.AddUser(projectopstest.UserSpec{OrganizationID: orgID, Role: role, Name: name}))
	key, _, err := f.Srv.AddAPIKey(id, name)
	if err != nil {
		t.Fatalf("AddAPIKey: %v", err)
	}
	return id, key
}

// Must fails the test when an Add helper fails and returns the new id.
func Must(t testing.TB) func(id string, err error) string {
	return func(id string, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
}

// WantError asserts err is a *projectops.Error with code and the HTTP
// status the specification pairs with it (status 0 when the SDK raised it
// before sending).
func WantError(t testing.TB, err error, code projectops.Code, sent bool) *projectops.Error {
	t.Helper()
	var e *projectops.Error
	if !errors.As(err, &e) {
		t.Fatalf("err = %v (%T), want *projectops.Error %s", err, err, code)
	}
	if e.Code != code {
		t.Fatalf("code = %s (%v), want %s", e.Code, e, code)
	}
	wantStatus := 0
	if sent {
		wantStatus = code.Status()
	}
	if e.StatusCode != wantStatus {
		t.Fatalf("status = %d, want %d (%v)", e.StatusCode, wantStatus, e)
	}
	return e
}

// WantField asserts a VALIDATION_ERROR naming field in details.field.
func WantField(t testing.TB, err error, field string, sent bool) *projectops.Error {
	t.Helper()
	e := WantError(t, err, projectops.CodeValidation, sent)
	if got, _ := e.Details["field"].(string); got != field {
		t.Fatalf("details.field = %q, want %q (details %v)", got, field, e.Details)
	}
	return e
}

// Collect drains an iterator, stopping at the first error.
func Collect[T any](seq func(yield func(T, error) bool)) ([]T, error) { return pager.Collect(seq) }

// APIBody is the error envelope as sent on the wire.
type APIBody struct {
	Code    projectops.Code `json:"code"`
	Message string          `json:"message"`
	Details map[string]any  `json:"details"`
}

// Raw sends body as-is with key (when set) through the double's plain
// http.Client, for requests the typed SDK cannot produce, and returns the
// status and the decoded envelope (zero for a success).
func (f *Fixture) Raw(t testing.TB, method, path, key, body string) (int, APIBody) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, f.Srv.URL()+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := f.Srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var e APIBody
	if resp.StatusCode >= 300 {
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatalf("%s %s: %d with a non-envelope body %q", method, path, resp.StatusCode, b)
		}
	}
	return resp.StatusCode, e
}

// HostConfig is a minimal host config the service accepts (the fields the
// host config v2 validator requires), with extra merged over it.
func HostConfig(extra map[string]any) map[string]any {
	cfg := map[string]any{
		"modelId": "openai/gpt-5", "temperature": 0.7,
		"connectionDefaults": map[string]any{"headers": map[string]any{}, "requestTimeout": 10000.0},
		"hostContext":        map[string]any{}, "clientCapabilities": map[string]any{},
	}
	for k, v := range extra {
		cfg[k] = v
	}
	return cfg
}

// Canonical is cfg as the service stores it: schemaVersion 2, the id lists
// present; tests compare it with a read-back config less its "id".
func Canonical(cfg map[string]any) map[string]any {
	out := map[string]any{"schemaVersion": 2.0, "serverIds": []any{}, "optionalServerIds": []any{}}
	for k, v := range cfg {
		out[k] = v
	}
	return out
}

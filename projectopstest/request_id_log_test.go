package projectopstest_test

import (
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// A key a client sends as its X-Request-Id never reaches the debug log:
// the request's line shows the id redacted, as Requests does.
func TestDebugLogRedactsKeyAsRequestID(t *testing.T) {
	t.Parallel()
	logs, opt := debugLogged(t)
	srv := projectopstest.NewTestServer(t, opt)
	key := srv.Default().APIKey
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL()+"/me", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+key)
	req.Header.Set("X-Request-Id", key)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	// Close waits for the handler, whose deferred log line may follow the
	// answer.
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if got := logs.String(); strings.Contains(got, key) || !strings.Contains(got, `"requestId":"REDACTED"`) {
		t.Fatalf("debug log with the key as X-Request-Id: %s, want the id shown REDACTED", got)
	}
}

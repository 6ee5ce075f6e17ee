package projectops_test

import (
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestInProcessHostThroughProxy: with HTTP_PROXY set, the default client
// has the proxy resolve projectops.test, never looks it up itself, and so
// reaches a double the proxy serves there; NewClient must accept that URL
// without a transport. The client runs in a child process: net/http reads
// the proxy environment once per process, and this binary reads it before
// any test could set it.
func TestInProcessHostThroughProxy(t *testing.T) {
	if os.Getenv("PROJECTOPS_TEST_PROXY_CHILD") == "1" {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(projectopstest.InProcessURL),
			option.WithAPIKey(os.Getenv("PROJECTOPS_TEST_PROXY_KEY")), option.WithMaxRetries(0))
		if err != nil {
			t.Fatalf("NewClient refuses a base URL its proxy reaches: %v", err)
		}
		if _, err := c.Catalog.Me(t.Context()); err != nil {
			t.Fatalf("Me through the proxy: %v", err)
		}
		return
	}
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	h := srv.Handler()
	var proxied atomic.Int64
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Host != "projectops.test" {
			http.Error(w, "unexpected host "+r.URL.Host, http.StatusBadGateway)
			return
		}
		proxied.Add(1)
		r.RequestURI = r.URL.RequestURI() // a proxy's request names the absolute URL
		h.ServeHTTP(w, r)
	}))
	defer proxy.Close()
	cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestInProcessHostThroughProxy$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "PROJECTOPS_TEST_PROXY_CHILD=1", "PROJECTOPS_TEST_PROXY_KEY="+srv.Default().APIKey,
		"HTTP_PROXY="+proxy.URL, "http_proxy="+proxy.URL, "NO_PROXY=", "no_proxy=", "REQUEST_METHOD=")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "--- PASS: TestInProcessHostThroughProxy") {
		t.Fatalf("the child ran no test:\n%s", out)
	}
	if proxied.Load() == 0 {
		t.Errorf("the child's call did not go through the proxy:\n%s", out)
	}
}

package projectops_test

import (
	"errors"
	"strconv"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
)

// A 3xx fault on a GET reaches an in-process client as the unfollowed
// redirect it is, after one request: the SDK calls the in-process
// transport directly, and the 3xx it gets is not a reason to send again.
func TestInProcessRedirectFaultServedOnce(t *testing.T) {
	t.Parallel()
	for _, status := range []int{300, 302, 304, 307} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			t.Parallel()
			srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
			c, err := srv.NewClient()
			if err != nil {
				t.Fatal(err)
			}
			srv.SetFault("GET /me", projectopstest.Fault{Status: status, Times: 1})
			_, err = c.Catalog.Me(t.Context())
			if e, ok := errors.AsType[*projectops.Error](err); !ok || e.StatusCode != status {
				t.Errorf("err = %v, want the %d as *projectops.Error", err, status)
			}
			if n := len(srv.Requests()); n != 1 {
				t.Errorf("the double served %d requests, want 1", n)
			}
		})
	}
}

package projectops_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A captive portal or a misrouted load balancer answers 200 with an HTML
// content type and no body. A non-JSON success body is named as the sign of
// a base URL that is not the API's; an empty one must be too, not a host
// with no id and a nil error.
func TestEmptyHTMLSuccessIsNotAHost(t *testing.T) {
	t.Parallel()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.WriteHeader(http.StatusOK)
	}))
	defer srv.Close()
	c := edgeClient(t, srv.URL+"/api/v1")
	h, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1")
	if err == nil || !strings.Contains(err.Error(), `"text/html; charset=utf-8", not JSON`) {
		t.Fatalf("GET answered 200 text/html with no body: got host %+v and %v; want an error naming the non-JSON answer", h, err)
	}
}

package tunnels_test

import (
	"io"
	"net/http"
	"testing"
)

// The double's edge passes a public caller's query to the host as
// written, semicolons and odd escapes included, as the service's edge
// does (it parses only its k): the double refused such a query with 400
// before any tunnel saw it.
func TestPublicQueryReachesHostAsWritten(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	serve(t, f, g, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, r.URL.RawQuery)
	}))
	for _, q := range []string{"a=1;b=2", "sql=select+1;x=2", "c=%zz&d=1"} {
		if status, body := get(t, f, http.MethodGet, g.URL+"&"+q, ""); status != http.StatusOK || body != q {
			t.Errorf("?k=…&%s: %d %q, want 200 %q", q, status, body, q)
		}
	}
}

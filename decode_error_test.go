package projectops_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// A success body that does not decode gives the same, matchable error
// whether the service sent a Content-Length or chunked it (a proxy may drop
// the length): errors.As finds encoding/json's *UnmarshalTypeError or
// *SyntaxError, the JSON error types an SDK user can name, and the message
// names the route.
func TestDecodeErrorTypeDoesNotDependOnFraming(t *testing.T) {
	t.Parallel()
	cases := []struct {
		body string
		want func(error) bool
		what string
	}{
		{`{"id":5}`, func(err error) bool { var te *json.UnmarshalTypeError; return errors.As(err, &te) }, "*encoding/json.UnmarshalTypeError"},
		{`{"id":"hst_1"} junk`, func(err error) bool { var se *json.SyntaxError; return errors.As(err, &se) }, "*encoding/json.SyntaxError"},
	}
	for _, tc := range cases {
		for _, chunked := range []bool{false, true} {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				if chunked {
					w.Write([]byte(tc.body[:3]))
					w.(http.Flusher).Flush()
					w.Write([]byte(tc.body[3:]))
					return
				}
				w.Write([]byte(tc.body))
			}))
			c := edgeClient(t, srv.URL+"/api/v1")
			_, err := c.Hosts.Get(context.Background(), "prj_1", "hst_1")
			srv.Close()
			if err == nil || !tc.want(err) || !strings.Contains(err.Error(), "GET /projects/prj_1/hosts/hst_1: decoding response: ") {
				t.Errorf("200 %q (chunked %v): err %v (%T cause); want errors.As to %s under the route, whatever the framing", tc.body, chunked, err, errors.Unwrap(err), tc.what)
			}
		}
	}
}

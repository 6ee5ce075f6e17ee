package servers_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
)

// The service's doctor reads a saved Authorization header by exactly two
// spellings, "Authorization" then "authorization", on the saved object. A
// header saved as "AUTHORIZATION" is not credentials there: the probe's
// 401 makes the report oauth_required, its connection skipped.
func TestDoctorUpperCaseAuthorizationIsNotCredentials(t *testing.T) {
	t.Parallel()
	peer := newOAuthPeer(t)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "upper", URL: peer.url + "/mcp",
		Headers: map[string]projectopstest.Secret{"AUTHORIZATION": "Bearer static-refused-1234"}}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorOAuthRequired(t, rep, "a saved AUTHORIZATION header")
}

// The service's probe POSTs initialize and reads a 401 there as
// oauth_required; it tries the SSE GET only after a 404, 405, 406, 415 or
// 501, and then reads the GET's 401 the same way. To a caller without
// credentials: POST 401 and GET 403 is oauth_required (the GET never
// counts); POST 400 and GET 401 stops at the 400, connects, and the
// connection's auth error makes the report status error, AUTH_ERROR; POST
// 405 and GET 401 is oauth_required (the fallback's 401 is the probe's).
func TestDoctorReadsTheProbeStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		post, get int
		oauth     bool
	}{
		{post: http.StatusUnauthorized, get: http.StatusForbidden, oauth: true},
		{post: http.StatusBadRequest, get: http.StatusUnauthorized},
		{post: http.StatusMethodNotAllowed, get: http.StatusUnauthorized, oauth: true},
	} {
		name := fmt.Sprintf("POST %d, GET %d", tc.post, tc.get)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			rep := doctorOf(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				code := tc.get
				if r.Method == http.MethodPost {
					code = tc.post
				}
				http.Error(w, http.StatusText(code), code)
			}))
			if tc.oauth {
				wantDoctorOAuthRequired(t, rep, name)
			} else {
				wantDoctorRefused(t, rep, tc.get)
			}
		})
	}
}

// doctorOf saves a server served by h in a fresh double and runs its
// doctor.
func doctorOf(t *testing.T, h http.Handler) *servers.DoctorReport {
	t.Helper()
	hs := httptest.NewServer(h)
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "probed", URL: hs.URL + "/mcp"}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// A POST refused 401 skips the service's connection even when its SSE
// fallback would have connected: the probe decided before connecting, so
// no SSE stream is opened either.
func TestDoctorPost401SSEServedIsOAuthRequired(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "sse-only", Version: "1"}, nil)
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
	var gets atomic.Int32
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		if r.Method == http.MethodPost && r.URL.Query().Get("sessionid") == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		sse.ServeHTTP(w, r)
	})
	wantDoctorOAuthRequired(t, doctorOf(t, h), "POST 401, SSE served")
	if n := gets.Load(); n != 0 {
		t.Errorf("doctor sent %d SSE GETs after the POST's 401, want none: the service's doctor does not connect", n)
	}
}

// wantDoctorOAuthRequired checks an oauth_required report, its connection
// skipped.
func wantDoctorOAuthRequired(t *testing.T, rep *servers.DoctorReport, what string) {
	t.Helper()
	if rep.Status != servers.DoctorOAuthRequired || rep.Connection.Status != servers.ConnectionSkipped {
		t.Errorf("doctor, %s: status %q, connection %+v, error %+v; want oauth_required, skipped", what, rep.Status, rep.Connection, rep.Error)
	}
}

// A Streamable HTTP POST redirected (307) to a path that answers 401, on a
// server whose SSE endpoint serves: the service's probe follows the
// redirect as fetch does and reads the 401, so to a caller with no
// credentials the report is oauth_required, though validate, which has no
// probe, connects over SSE. The doctor opens no SSE stream.
func TestDoctorPostRedirectedTo401IsOAuthRequired(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "sse-only", Version: "1"}, nil)
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
	var gets atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		if r.URL.Path == "/denied" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		if r.Method == http.MethodPost && r.URL.Query().Get("sessionid") == "" {
			http.Redirect(w, r, "/denied", http.StatusTemporaryRedirect)
			return
		}
		sse.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "redir", URL: hs.URL + "/mcp"}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorOAuthRequired(t, rep, "POST 307 to a 401, SSE served")
	if n := gets.Load(); n != 0 {
		t.Errorf("doctor sent %d SSE GETs after the POST's 401, want none", n)
	}
	v, err := f.C.Servers.Validate(t.Context(), p, id)
	if err != nil || !v.Success || v.Status != servers.ConnectionConnected {
		t.Fatalf("Validate = %+v, %v; want connected over SSE", v, err)
	}
}

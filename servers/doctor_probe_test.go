package servers_test

import (
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
// 501. A server answering the POST 401 and the GET 403, to a caller
// without credentials, is oauth_required: the GET's 403 never counts.
func TestDoctorPost401Get403IsOAuthRequired(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		http.Error(w, "forbidden", http.StatusForbidden)
	}))
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "p401g403", URL: hs.URL + "/mcp"}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorOAuthRequired(t, rep, "POST 401, GET 403")
}

// A POST refused 401 skips the service's connection even when its SSE
// fallback would have connected: the probe decided before connecting, so
// no SSE stream is opened either.
func TestDoctorPost401SSEServedIsOAuthRequired(t *testing.T) {
	t.Parallel()
	s := mcp.NewServer(&mcp.Implementation{Name: "sse-only", Version: "1"}, nil)
	sse := mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
	var gets atomic.Int32
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			gets.Add(1)
		}
		if r.Method == http.MethodPost && r.URL.Query().Get("sessionid") == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		sse.ServeHTTP(w, r)
	}))
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "p401sse", URL: hs.URL + "/mcp"}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorOAuthRequired(t, rep, "POST 401, SSE served")
	if n := gets.Load(); n != 0 {
		t.Errorf("doctor sent %d SSE GETs after the POST's 401, want none: the service's doctor does not connect", n)
	}
}

// Conversely, a POST answered 400 then a GET answered 401: the service's
// probe stops at the 400 (no SSE GET), connects, and the connection's
// auth error makes the report status error, AUTH_ERROR.
func TestDoctorPost400Get401IsError(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			http.Error(w, "bad request", http.StatusBadRequest)
			return
		}
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "p400g401", URL: hs.URL + "/mcp"}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorRefused(t, rep, http.StatusUnauthorized)
}

// A POST answered 405 sends the service's probe on to the SSE GET, whose
// 401 is then the probe's: oauth_required.
func TestDoctorPost405Get401IsOAuthRequired(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		http.Error(w, "unauthorized", http.StatusUnauthorized)
	}))
	t.Cleanup(hs.Close)
	f := setup(t)
	p := f.WS.ProjectID
	id := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "p405g401", URL: hs.URL + "/mcp"}))
	rep, err := f.C.Servers.Doctor(t.Context(), p, id)
	if err != nil {
		t.Fatal(err)
	}
	wantDoctorOAuthRequired(t, rep, "POST 405, GET 401")
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

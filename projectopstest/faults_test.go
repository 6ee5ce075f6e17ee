package projectopstest_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func TestFaultStatus(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	route := "GET /projects/{projectId}/hosts"
	tests := []struct {
		name       string
		fault      projectopstest.Fault
		wantStatus int
		wantCode   shared.Code
		wantRetry  string
	}{
		{"code only", projectopstest.Fault{Code: shared.CodeServerUnreachable}, 502, shared.CodeServerUnreachable, ""},
		{"status only", projectopstest.Fault{Status: 504}, 504, shared.CodeTimeout, ""},
		{"unknown status", projectopstest.Fault{Status: 503}, 503, shared.CodeInternal, ""},
		{"rate limited", projectopstest.Fault{Code: shared.CodeRateLimited, RetryAfter: 1500 * time.Millisecond,
			Details: map[string]any{"reason": "CONCURRENT_RUN_LIMIT"}}, 429, shared.CodeRateLimited, "2"},
		{"unknown code", projectopstest.Fault{Status: 418, Code: "TEAPOT", Message: "short and stout"}, 418, "TEAPOT", ""},
	}
	for _, tg := range targets(t, srv) {
		for _, tt := range tests {
			srv.SetFault(route, tt.fault)
			r := tg.call(t, "GET", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, nil)
			if r.status != tt.wantStatus {
				t.Fatalf("%s/%s: status %d, want %d", tg.name, tt.name, r.status, tt.wantStatus)
			}
			if !strings.Contains(string(r.body), `"code":"`+string(tt.wantCode)+`"`) {
				t.Errorf("%s/%s: body %s", tg.name, tt.name, r.body)
			}
			if got := r.header.Get("Retry-After"); got != tt.wantRetry {
				t.Errorf("%s/%s: Retry-After %q, want %q", tg.name, tt.name, got, tt.wantRetry)
			}
		}
		srv.SetFault(route, projectopstest.Fault{Code: shared.CodeRateLimited, Details: map[string]any{"reason": "CONCURRENT_RUN_LIMIT"}})
		b := tg.call(t, "GET", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, nil).wantError(t, shared.CodeRateLimited)
		if b.Details["reason"] != "CONCURRENT_RUN_LIMIT" {
			t.Errorf("details = %v", b.Details)
		}
		// Other routes are untouched; ClearFaults restores the route.
		if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != 200 {
			t.Errorf("unfaulted route: %d", r.status)
		}
		srv.ClearFaults()
		if r := tg.call(t, "GET", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, nil); r.status != 200 {
			t.Errorf("after ClearFaults: %d", r.status)
		}
	}
}

// A fault with a code and no status: the billing refusal is a 403, as the
// service answers it, and a code the SDK does not know a 500, on either
// transport (it was a 200 in process and a dropped connection on loopback).
func TestFaultCodeWithoutStatus(t *testing.T) {
	t.Parallel()
	// Unchecked: the codes are outside the reference's enum on purpose.
	srv, err := projectopstest.NewServer(noLimit)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ws := srv.Default()
	route := "POST /projects/{projectId}/eval-ingest/report"
	for _, tg := range targets(t, srv) {
		for code, want := range map[shared.Code]int{shared.CodeBillingLimitReached: 403, "TEAPOT": 500} {
			srv.SetFault(route, projectopstest.Fault{Code: code})
			r := tg.call(t, "POST", "/projects/"+ws.ProjectID+"/eval-ingest/report", ws.APIKey, map[string]any{})
			if r.status != want || !strings.Contains(string(r.body), `"code":"`+string(code)+`"`) {
				t.Errorf("%s/%s: %d %s, want %d", tg.name, code, r.status, r.body, want)
			}
		}
	}
}

func TestFaultTimesAndBeforeAuth(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	srv.SetFault("GET /me", projectopstest.Fault{Code: shared.CodeInternal, Times: 2})
	// Faults fire before authentication: even a keyless request sees them.
	tg.call(t, "GET", "/me", "", nil).wantError(t, shared.CodeInternal)
	tg.call(t, "GET", "/me", ws.APIKey, nil).wantError(t, shared.CodeInternal)
	if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != 200 {
		t.Errorf("third request: %d, want 200 once Times is used up", r.status)
	}
}

func TestFaultLatency(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for _, tg := range targets(t, srv) {
		srv.SetFault("GET /me", projectopstest.Fault{Latency: 50 * time.Millisecond})
		start := time.Now()
		if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != 200 {
			t.Fatalf("%s: latency-only fault must pass through: %d", tg.name, r.status)
		}
		if d := time.Since(start); d < 50*time.Millisecond {
			t.Errorf("%s: answered after %v, want ≥ 50ms", tg.name, d)
		}
		// The wait honours the request context.
		srv.SetFault("GET /me", projectopstest.Fault{Latency: time.Hour})
		ctx, cancel := context.WithTimeout(t.Context(), 30*time.Millisecond)
		req, _ := http.NewRequestWithContext(ctx, "GET", tg.base+"/me", nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		start = time.Now()
		resp, err := tg.client.Do(req)
		cancel()
		if err == nil {
			resp.Body.Close()
			t.Fatalf("%s: want a context error", tg.name)
		}
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: err = %v, want deadline exceeded", tg.name, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: cancellation took %v", tg.name, d)
		}
		srv.ClearFaults()
	}
}

func TestFaultDrop(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	srv.SetFault("GET /me", projectopstest.Fault{Drop: true})
	for _, tg := range targets(t, srv) {
		req, _ := http.NewRequestWithContext(t.Context(), "GET", tg.base+"/me", nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		resp, err := tg.client.Do(req)
		if err == nil {
			resp.Body.Close()
			t.Fatalf("%s: dropped connection answered %d", tg.name, resp.StatusCode)
		}
	}
	var dropped int
	for _, r := range srv.Requests() {
		if r.Route == "GET /me" && r.Status == 0 {
			dropped++
		}
	}
	if dropped != 2 {
		t.Errorf("request log shows %d dropped requests, want 2", dropped)
	}
}

func TestRequestIDAndLog(t *testing.T) {
	t.Parallel()
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, noLimit, projectopstest.WithClock(clock.Now))
	ws := srv.Default()
	for _, tg := range targets(t, srv) {
		srv.ResetRequests()
		req, _ := http.NewRequestWithContext(t.Context(), "GET", tg.base+"/projects/"+ws.ProjectID+"/hosts?secret=k", nil)
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		req.Header.Set("X-Request-Id", "trace-abc-123")
		resp, err := tg.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-Request-Id"); got != "trace-abc-123" {
			t.Errorf("%s: reflected id %q", tg.name, got)
		}
		// Generated when absent, on errors too.
		r := tg.call(t, "GET", "/nope", ws.APIKey, nil)
		generated := r.header.Get("X-Request-Id")
		if !strings.HasPrefix(generated, "req_") {
			t.Errorf("%s: generated id %q", tg.name, generated)
		}
		reqs := srv.Requests()
		if len(reqs) != 2 {
			t.Fatalf("%s: %d requests logged", tg.name, len(reqs))
		}
		want := projectopstest.Request{Method: "GET", Path: "/api/v1/projects/" + ws.ProjectID + "/hosts",
			Route: "GET /projects/{projectId}/hosts", Status: 200, KeyID: ws.APIKeyID, RequestID: "trace-abc-123", Time: clock.Now()}
		if reqs[0] != want {
			t.Errorf("%s: logged %+v, want %+v", tg.name, reqs[0], want)
		}
		if reqs[1].Status != 404 || reqs[1].Route != "" || reqs[1].RequestID != generated || reqs[1].KeyID != ws.APIKeyID {
			t.Errorf("%s: logged %+v", tg.name, reqs[1])
		}
	}
}

func TestRoutesAreFaultKeys(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	routes := srv.Routes()
	for _, want := range []string{"GET /me", "GET /host-catalog", "DELETE /projects/{projectId}/hosts/{hostId}",
		"GET /projects/{projectId}/chatboxes/{chatboxId}", "GET /chat-sessions"} {
		found := false
		for _, r := range routes {
			found = found || r == want
		}
		if !found {
			t.Errorf("Routes() lacks %q: %v", want, routes)
		}
	}
}

// A fault on a route that is not one of Routes could never fire: SetFault
// panics, naming it, instead of letting a test of error handling pass on
// the happy path.
func TestSetFaultUnknownRoutePanics(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	for _, route := range []string{
		"GET /api/v1/projects/{projectId}/hosts",
		"GET /projects/{projectID}/hosts",
		"GET /projects/" + srv.Default().ProjectID + "/hosts",
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), route) {
					t.Errorf("SetFault(%q) did not panic naming it: %v", route, r)
				}
			}()
			srv.SetFault(route, projectopstest.Fault{Status: 500})
		}()
	}
	srv.SetFault("GET /projects/{projectId}/hosts", projectopstest.Fault{Status: 500}) // a route: no panic
}

// A path outside /api/v1 (a base URL without the version segment) gets a
// 404 that says where the API is.
func TestNoRouteOutsideAPIPrefixSaysWhere(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	for path, hint := range map[string]bool{"/projects/prj_1/hosts": true, "/api/v1/nothing-here": false, "/api/v1": false, "/tunnels": false} {
		w := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodGet, path, nil)
		req.Header.Set("Authorization", "Bearer "+srv.Default().APIKey)
		srv.Handler().ServeHTTP(w, req)
		if w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "served under /api/v1") != hint {
			t.Errorf("GET %s: %d %s; want 404, hint %v", path, w.Code, w.Body, hint)
		}
	}
}

// Header names set in the map directly, not canonical, are heard in
// process as net/http's server hears them over a socket.
func TestInProcessHeaderNamesCanonical(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t)
	req := httptest.NewRequest(http.MethodGet, srv.URL()+"/me", nil)
	req.RequestURI = ""
	req.Header = http.Header{"authorization": {"Bearer " + srv.Default().APIKey}, "x-request-id": {"req-lower"}}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-Id") != "req-lower" {
		t.Errorf("GET /me with lower-case header names: %d, request id %q", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
	if _, ok := req.Header["Authorization"]; ok {
		t.Error("the caller's header map was changed")
	}
}

// The diagnostics and export read an empty body or any JSON object: the
// reference's emptyBody is open, and the service ignores what it holds.
// A body that is not a JSON object is still refused.
func TestServerReadsIgnoreBodyFields(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	id := must[string](t)(srv.AddServer(projectopstest.ServerSpec{ProjectID: ws.ProjectID, Name: "demo", MCPServer: projectopstest.DemoMCPServer()}))
	for _, op := range []string{"validate", "doctor", "check-oauth", "export"} {
		for body, want := range map[string]int{"": 200, "{}": 200, `{"verbose":true}`: 200, "[1]": 400, "{": 400} {
			req := httptest.NewRequest(http.MethodPost, srv.URL()+"/projects/"+ws.ProjectID+"/servers/"+id+"/"+op, strings.NewReader(body))
			req.RequestURI = ""
			req.Header.Set("Authorization", "Bearer "+ws.APIKey)
			req.Header.Set("Content-Type", "application/json")
			resp, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("%s with body %q: %d %s; want %d", op, body, resp.StatusCode, b, want)
			}
		}
	}
}

// A fault that fires but changes nothing would let a test of error
// handling pass on the happy path, as one on an unknown route would:
// SetFault panics, naming the route, and sets nothing.
func TestSetFaultRefusesFaultThatDoesNothing(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	route := "GET /projects/{projectId}/hosts"
	for _, f := range []projectopstest.Fault{
		{},
		{Times: 1},
		{Every: 2},
		{AfterRoute: true},
		{Latency: -time.Second},
		{RetryAfter: 2 * time.Second, Times: 1},
		{Message: "boom", Details: map[string]any{"x": 1}},
		{Drop: true, RetryAfter: time.Second},
		{Latency: time.Millisecond, Message: "slow"},
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), route) {
					t.Errorf("SetFault(%+v) did not panic naming the route: %v", f, r)
				}
			}()
			srv.SetFault(route, f)
		}()
	}
	if r := inproc(srv).call(t, "GET", "/projects/"+ws.ProjectID+"/hosts", ws.APIKey, nil); r.status != 200 {
		t.Errorf("after refused faults: %d, want 200", r.status)
	}
	for _, f := range []projectopstest.Fault{
		{Status: 503}, {Code: shared.CodeInternal}, {Drop: true}, {Latency: time.Millisecond},
		{AfterRoute: true, Drop: true}, {AfterRoute: true, Latency: time.Millisecond}, {Status: 429, RetryAfter: time.Second},
	} {
		srv.SetFault(route, f) // each changes the answer: no panic
	}
}

// A faulted request is logged with the key it carried, though the fault
// fires before authentication: parallel subtests on one double, one key
// each, can tell their requests apart. The key is looked up, not checked:
// a request with an unknown key still meets the fault, logged without one.
func TestFaultedRequestsRecordKeyID(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	route := "GET /projects/{projectId}/hosts"
	srv.SetFault(route, projectopstest.Fault{Status: http.StatusInternalServerError})
	path := "/projects/" + ws.ProjectID + "/hosts"
	keys := map[string]string{ws.APIKeyID: ws.APIKey}
	for _, name := range []string{"a", "b"} {
		secret, id, err := srv.AddAPIKey(ws.UserID, name)
		if err != nil {
			t.Fatal(err)
		}
		keys[id] = secret
	}
	for id, secret := range keys {
		inproc(srv).call(t, "GET", path, secret, nil).wantError(t, shared.CodeInternal)
		inproc(srv).call(t, "GET", path, secret, nil).wantError(t, shared.CodeInternal)
		logged := 0
		for _, r := range srv.Requests() {
			if r.KeyID == id {
				logged++
			}
		}
		if logged != 2 {
			t.Errorf("key %s: %d faulted requests logged with it, want 2", id, logged)
		}
	}
	inproc(srv).call(t, "GET", path, "sk_unknown_key_0123456789abcdef", nil).wantError(t, shared.CodeInternal)
	if rs := srv.Requests(); rs[len(rs)-1].KeyID != "" || rs[len(rs)-1].Status != http.StatusInternalServerError {
		t.Errorf("an unknown key's faulted request logged %+v, want the fault's 500 and no key id", rs[len(rs)-1])
	}
}

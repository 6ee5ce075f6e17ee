package projectopstest_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// The control API is driven here as a client in another language would:
// over loopback, with raw JSON, no SDK types.

// ctlFix is a double serving the control API on loopback.
type ctlFix struct {
	srv       *projectopstest.Server
	base, ctl string // the API's and the control API's base URLs
	key       string
	hc        *http.Client
}

func newCtlFix(t *testing.T, opts ...projectopstest.Option) ctlFix {
	t.Helper()
	srv := projectopstest.NewTestServer(t, append(opts, projectopstest.WithRateLimit(0, 0))...)
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	tr := &http.Transport{}
	t.Cleanup(tr.CloseIdleConnections)
	return ctlFix{srv: srv, base: base, ctl: srv.ControlURL(), key: srv.Default().APIKey, hc: &http.Client{Transport: tr}}
}

// ctlReply is one answer: status, headers and body.
type ctlReply struct {
	status int
	header http.Header
	body   []byte
}

// do sends method url with body (JSON, "" for none) and key ("" for none).
// A transport error is returned, not fatal: a dropped connection is one.
func (f ctlFix) do(t *testing.T, method, url, body, key string) (ctlReply, error) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	res, err := f.hc.Do(req)
	if err != nil {
		return ctlReply{}, err
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		return ctlReply{}, err
	}
	return ctlReply{res.StatusCode, res.Header, b}, nil
}

// control calls the control API at path, failing the test on a transport
// error or a status other than want.
func (f ctlFix) control(t *testing.T, method, path, body string, want int) ctlReply {
	t.Helper()
	r, err := f.do(t, method, f.ctl+path, body, "")
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	if r.status != want {
		t.Fatalf("%s %s = %d %s, want %d", method, path, r.status, r.body, want)
	}
	return r
}

// me calls GET /me with the default key.
func (f ctlFix) me(t *testing.T) (ctlReply, error) {
	t.Helper()
	return f.do(t, http.MethodGet, f.base+"/me", "", f.key)
}

// envelope decodes an error answer's {code, message, details}.
func envelope(t *testing.T, r ctlReply) (code, msg string, details map[string]any) {
	t.Helper()
	var e struct {
		Code    string         `json:"code"`
		Message string         `json:"message"`
		Details map[string]any `json:"details"`
	}
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("error body %s: %v", r.body, err)
	}
	return e.Code, e.Message, e.Details
}

// nonEmpty reports whether v, a decoded JSON value, is a non-empty string.
func nonEmpty(v any) bool {
	s, ok := v.(string)
	return ok && s != ""
}

func decodeJSON(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("body %s: %v", b, err)
	}
}

// A 503 with Retry-After set through the control API is what a client
// gets exactly times times, with the fault's message; then the route
// answers normally, and GET faults shows the uses left until none are.
func TestControlFaultTimesThenNormal(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	f.control(t, http.MethodPost, "/faults",
		`{"route":"GET /me","fault":{"status":503,"message":"down for a test","retryAfterMs":1500,"times":2}}`,
		http.StatusNoContent)
	var set struct {
		Faults []struct {
			Route     string         `json:"route"`
			Fault     map[string]any `json:"fault"`
			TimesLeft int            `json:"timesLeft"`
		} `json:"faults"`
	}
	decodeJSON(t, f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body, &set)
	if len(set.Faults) != 1 || set.Faults[0].Route != "GET /me" || set.Faults[0].TimesLeft != 2 ||
		set.Faults[0].Fault["status"] != 503.0 || set.Faults[0].Fault["retryAfterMs"] != 1500.0 {
		t.Fatalf("GET faults = %+v, want GET /me's 503 with 2 uses left", set)
	}
	for i := range 2 {
		r, err := f.me(t)
		if err != nil {
			t.Fatalf("call %d: %v", i+1, err)
		}
		code, msg, _ := envelope(t, r)
		if r.status != http.StatusServiceUnavailable || r.header.Get("Retry-After") != "2" || msg != "down for a test" || code == "" {
			t.Fatalf("call %d = %d Retry-After %q %s, want the 503 with Retry-After 2", i+1, r.status, r.header.Get("Retry-After"), r.body)
		}
	}
	if r, err := f.me(t); err != nil || r.status != http.StatusOK {
		t.Fatalf("third call = %d %s, %v; want 200 once the fault is used up", r.status, r.body, err)
	}
	decodeJSON(t, f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body, &set)
	if len(set.Faults) != 0 {
		t.Fatalf("GET faults after use = %+v, want none", set)
	}
}

// drop: the client sees a transport error, not a status, once.
func TestControlFaultDrop(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	// A fresh connection per request: net/http resends a GET whose reused
	// connection closed, which would hide the drop.
	tr := &http.Transport{DisableKeepAlives: true}
	t.Cleanup(tr.CloseIdleConnections)
	f.hc = &http.Client{Transport: tr}
	f.control(t, http.MethodPost, "/faults", `{"route":"GET /me","fault":{"drop":true,"times":1}}`, http.StatusNoContent)
	if r, err := f.me(t); err == nil {
		t.Fatalf("dropped call = %d %s, want a transport error", r.status, r.body)
	}
	if r, err := f.me(t); err != nil || r.status != http.StatusOK {
		t.Fatalf("next call = %d, %v; want 200", r.status, err)
	}
}

// afterRoute: the route runs (the host is created) and its answer is
// replaced by the fault's.
func TestControlFaultAfterRoute(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	f.control(t, http.MethodPost, "/faults",
		`{"route":"POST /projects/{projectId}/hosts","fault":{"status":502,"afterRoute":true,"times":1}}`, http.StatusNoContent)
	hosts := f.base + "/projects/" + f.srv.Default().ProjectID + "/hosts"
	r, err := f.do(t, http.MethodPost, hosts, `{"name":"answer lost","template":"claude"}`, f.key)
	if err != nil || r.status != http.StatusBadGateway {
		t.Fatalf("create = %d %s, %v; want the fault's 502", r.status, r.body, err)
	}
	r, err = f.do(t, http.MethodGet, hosts, "", f.key)
	if err != nil || r.status != http.StatusOK || !strings.Contains(string(r.body), `"answer lost"`) {
		t.Fatalf("hosts = %d %s, %v; want the host the faulted create made", r.status, r.body, err)
	}
}

// every: every second request fails, the others are served.
func TestControlFaultEvery(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	f.control(t, http.MethodPost, "/faults", `{"route":"GET /me","fault":{"status":500,"every":2}}`, http.StatusNoContent)
	var got []int
	for range 4 {
		r, err := f.me(t)
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, r.status)
	}
	if want := []int{200, 500, 200, 500}; !slices.Equal(got, want) {
		t.Fatalf("statuses = %v, want %v", got, want)
	}
}

// DELETE faults clears them: the route answers normally again.
func TestControlClearFaults(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	f.control(t, http.MethodPost, "/faults", `{"route":"GET /me","fault":{"status":500}}`, http.StatusNoContent)
	if r, _ := f.me(t); r.status != http.StatusInternalServerError {
		t.Fatalf("faulted call = %d, want 500", r.status)
	}
	f.control(t, http.MethodDelete, "/faults", "", http.StatusNoContent)
	if r, err := f.me(t); err != nil || r.status != http.StatusOK {
		t.Fatalf("after DELETE faults = %d, %v; want 200", r.status, err)
	}
	if b := f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body; string(b) != `{"faults":[]}` {
		t.Fatalf("GET faults = %s, want none", b)
	}
}

// GET requests shows the faulted and the normal request, redacted as
// Requests is, and no control request; DELETE requests empties it.
func TestControlRequestLog(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	f.control(t, http.MethodPost, "/faults", `{"route":"GET /me","fault":{"status":503,"times":1}}`, http.StatusNoContent)
	f.me(t)
	f.me(t)
	f.control(t, http.MethodPost, "/wait", "", http.StatusNoContent)
	b := f.control(t, http.MethodGet, "/requests", "", http.StatusOK).body
	if strings.Contains(string(b), f.key) {
		t.Fatalf("the request log shows the key: %s", b)
	}
	var log struct {
		Requests []map[string]any `json:"requests"`
	}
	decodeJSON(t, b, &log)
	if len(log.Requests) != 2 {
		t.Fatalf("requests = %s, want the two GET /me only", b)
	}
	for i, want := range []float64{503, 200} {
		r := log.Requests[i]
		if r["method"] != "GET" || r["path"] != "/api/v1/me" || r["route"] != "GET /me" || r["status"] != want ||
			r["keyId"] != f.srv.Default().APIKeyID || !nonEmpty(r["requestId"]) || !nonEmpty(r["time"]) {
			t.Fatalf("request %d = %v, want GET /me answered %v", i, r, want)
		}
	}
	f.control(t, http.MethodDelete, "/requests", "", http.StatusNoContent)
	if b := f.control(t, http.MethodGet, "/requests", "", http.StatusOK).body; string(b) != `{"requests":[]}` {
		t.Fatalf("GET requests after DELETE = %s, want none", b)
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Fatalf("Requests() holds %d after the control calls, want 0", n)
	}
}

// GET routes lists Routes, the keys POST faults takes.
func TestControlRoutes(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	var got struct {
		Routes []string `json:"routes"`
	}
	decodeJSON(t, f.control(t, http.MethodGet, "/routes", "", http.StatusOK).body, &got)
	if !slices.Equal(got.Routes, f.srv.Routes()) {
		t.Fatalf("GET routes = %v, want Routes() %v", got.Routes, f.srv.Routes())
	}
}

// Every body SetFault would refuse, or that is not the JSON expected, is a
// 400 VALIDATION_ERROR whose message says what is wrong; no fault is set.
func TestControlSetFaultRefusals(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	for _, c := range []struct{ name, body, msg string }{
		{"empty body", ``, "route is required"},
		{"not JSON", `{"route":`, "Invalid JSON body"},
		{"array", `[]`, "JSON body must be an object"},
		{"trailing data", `{"route":"GET /me","fault":{"status":500}} {}`, "Invalid JSON body"},
		{"trailing brace", `{"route":"GET /me","fault":{"status":500}}}`, "Invalid JSON body"},
		{"trailing bracket", `{"route":"GET /me","fault":{"status":500}}]`, "Invalid JSON body"},
		{"duplicate key", `{"route":"GET /me","route":"GET /me","fault":{"status":500}}`, "Duplicate key in JSON body"},
		{"duplicate fault key", `{"route":"GET /me","fault":{"status":500,"status":502}}`, "Duplicate key in JSON body"},
		{"key in upper case", `{"ROUTE":"GET /me","fault":{"status":500}}`, `Unknown field "ROUTE"`},
		{"fault key in other case", `{"route":"GET /me","fault":{"Status":500}}`, `Unknown field "fault.Status"`},
		{"fault key in other case, wrong type", `{"route":"GET /me","fault":{"status":500,"Status":"x"}}`, `Unknown field "fault.Status"`},
		{"fault key in other case too", `{"route":"GET /me","fault":{"status":500,"RETRYAFTERMS":10}}`, `Unknown field "fault.RETRYAFTERMS"`},
		{"unknown field", `{"route":"GET /me","fault":{"status":500},"extra":1}`, `Unknown field "extra"`},
		{"unknown fault field", `{"route":"GET /me","fault":{"status":500,"retryAfter":1}}`, `Unknown field "fault.retryAfter"`},
		{"wrong type", `{"route":"GET /me","fault":{"status":"503"}}`, `Field "fault.status" must be an integer`},
		{"fractional ms", `{"route":"GET /me","fault":{"status":503,"latencyMs":1.5}}`, `Field "fault.latencyMs" must be an integer`},
		{"route type", `{"route":1,"fault":{"status":500}}`, `Field "route" must be a string`},
		{"body too large", `{"route":"GET /me","fault":{"status":500,"message":"` + strings.Repeat("x", 1<<20) + `"}}`, "Request body exceeds 1MB limit"},
		{"no route", `{"fault":{"status":500}}`, "route is required"},
		{"unknown route", `{"route":"GET /nope","fault":{"status":500}}`, `no route "GET /nope"`},
		{"prefixed route", `{"route":"GET /api/v1/me","fault":{"status":500}}`, `no route "GET /api/v1/me"`},
		{"no fault", `{"route":"GET /me"}`, "fault is required"},
		{"no-op fault", `{"route":"GET /me","fault":{}}`, "the fault changes nothing: set status, code, drop or latencyMs"},
		{"times alone", `{"route":"GET /me","fault":{"times":2}}`, "the fault changes nothing"},
		{"message alone", `{"route":"GET /me","fault":{"message":"x","drop":true}}`, "sent with an error response only: set status or code"},
		{"retry alone", `{"route":"GET /me","fault":{"retryAfterMs":100,"latencyMs":5}}`, "sent with an error response only"},
		{"negative times", `{"route":"GET /me","fault":{"status":500,"times":-1}}`, "fault.times must not be negative"},
		{"negative latency", `{"route":"GET /me","fault":{"status":500,"latencyMs":-5}}`, "fault.latencyMs must not be negative"},
		{"huge latency", `{"route":"GET /me","fault":{"status":500,"latencyMs":9300000000000}}`, "fault.latencyMs is too large: at most 9223372036854 milliseconds"},
		{"huge retry", `{"route":"GET /me","fault":{"status":500,"retryAfterMs":9223372036855}}`, "fault.retryAfterMs is too large: at most 9223372036854 milliseconds"},
		{"huge times", `{"route":"GET /me","fault":{"status":500,"times":2147483648}}`, "fault.times is too large: at most 2147483647 requests"},
		{"huge every", `{"route":"GET /me","fault":{"status":500,"every":2147483648}}`, "fault.every is too large: at most 2147483647 requests"},
		{"negative every", `{"route":"GET /me","fault":{"status":500,"every":-2}}`, "fault.every must not be negative"},
		{"negative retry", `{"route":"GET /me","fault":{"status":500,"retryAfterMs":-1}}`, "fault.retryAfterMs must not be negative"},
		{"success status", `{"route":"GET /me","fault":{"status":200}}`, "fault.status must be an HTTP error status"},
		{"bogus status", `{"route":"GET /me","fault":{"status":42}}`, "fault.status must be an HTTP error status"},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := f.control(t, http.MethodPost, "/faults", c.body, http.StatusBadRequest)
			code, msg, _ := envelope(t, r)
			if code != "VALIDATION_ERROR" || !strings.Contains(msg, c.msg) {
				t.Fatalf("%s: %s, want VALIDATION_ERROR saying %q", c.body, r.body, c.msg)
			}
		})
	}
	if b := f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body; string(b) != `{"faults":[]}` {
		t.Fatalf("GET faults after the refusals = %s, want none", b)
	}
}

// A method a control path does not take is 405 with Allow; a path under
// the control prefix that is no endpoint is 404. Neither is logged.
func TestControlMethodAndPath(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	for _, c := range []struct{ method, path, allow string }{
		{http.MethodPut, "/faults", "GET, POST, DELETE"},
		{http.MethodPost, "/routes", "GET"},
		{http.MethodGet, "/wait", "POST"},
		{http.MethodPost, "/requests", "GET, DELETE"},
	} {
		r := f.control(t, c.method, c.path, "", http.StatusMethodNotAllowed)
		if code, msg, _ := envelope(t, r); r.header.Get("Allow") != c.allow || code != "METHOD_NOT_ALLOWED" || !strings.Contains(msg, c.allow) {
			t.Errorf("%s %s = Allow %q %s, want Allow %q", c.method, c.path, r.header.Get("Allow"), r.body, c.allow)
		}
	}
	r := f.control(t, http.MethodGet, "/nothing", "", http.StatusNotFound)
	if code, msg, _ := envelope(t, r); code != "NOT_FOUND" || !strings.Contains(msg, "/routes, /faults, /requests and /wait") {
		t.Errorf("GET /nothing = %s, want a 404 naming the endpoints", r.body)
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("Requests() holds %d control requests, want 0", n)
	}
}

// Without WithControlAPI the control paths are unknown paths, answered as
// the service answers them: 404, logged like any other request.
func TestControlOffIsNotFound(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t)
	if f.ctl != "" {
		t.Fatalf("ControlURL() = %q without WithControlAPI, want empty", f.ctl)
	}
	origin := strings.TrimSuffix(f.base, "/api/v1")
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, "/_projectops/routes", ""},
		{http.MethodPost, "/_projectops/faults", `{"route":"GET /me","fault":{"status":500}}`},
		{http.MethodDelete, "/_projectops/requests", ""},
	} {
		r, err := f.do(t, c.method, origin+c.path, c.body, "")
		if err != nil {
			t.Fatal(err)
		}
		code, msg, _ := envelope(t, r)
		if r.status != http.StatusNotFound || code != "NOT_FOUND" || !strings.Contains(msg, "No route for "+c.method+" "+c.path) {
			t.Errorf("%s %s = %d %s, want the service's 404", c.method, c.path, r.status, r.body)
		}
	}
	if r, err := f.me(t); err != nil || r.status != http.StatusOK {
		t.Fatalf("GET /me = %d, %v; want 200 (no fault was set)", r.status, err)
	}
	if n := len(f.srv.Requests()); n != 4 {
		t.Fatalf("Requests() holds %d, want the 3 unknown paths and GET /me", n)
	}
}

// ControlURL is the API's origin and ControlPath, in process and once
// started.
func TestControlURL(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithControlAPI())
	if got, want := srv.ControlURL(), "http://projectops.test/_projectops"; got != want {
		t.Fatalf("ControlURL() before Start = %q, want %q", got, want)
	}
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	if got, want := srv.ControlURL(), strings.TrimSuffix(base, "/api/v1")+projectopstest.ControlPath; got != want {
		t.Fatalf("ControlURL() = %q, want %q", got, want)
	}
}

// A control request from a browser page on an origin the double does not
// serve is refused 403 before it does anything, a CORS "simple" POST
// (text/plain, no preflight) too; a request with no Origin (curl, any
// non-browser client) or with an origin WithAllowedOrigins lists is served.
func TestControlForeignOrigin(t *testing.T) {
	t.Parallel()
	const mine = "http://localhost:5173"
	f := newCtlFix(t, projectopstest.WithControlAPI(), projectopstest.WithAllowedOrigins(mine))
	send := func(method, path, origin, body string) ctlReply {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, f.ctl+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "text/plain")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := f.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return ctlReply{resp.StatusCode, resp.Header, b}
	}
	const fault = `{"route":"GET /me","fault":{"status":500}}`
	for _, c := range []struct{ method, path, body string }{
		{http.MethodPost, "/faults", fault},
		{http.MethodDelete, "/faults", ""},
		{http.MethodGet, "/requests", ""},
		{http.MethodPost, "/wait", ""},
		{http.MethodOptions, "/faults", ""},
		{http.MethodGet, "/nothing", ""},
	} {
		r := send(c.method, c.path, "https://evil.example", c.body)
		if code, msg, _ := envelope(t, r); r.status != http.StatusForbidden || code != "FORBIDDEN" || !strings.Contains(msg, "origin not allowed") {
			t.Errorf("%s %s from a foreign origin = %d %s, want 403 FORBIDDEN", c.method, c.path, r.status, r.body)
		}
	}
	if b := f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body; string(b) != `{"faults":[]}` {
		t.Fatalf("GET faults after the foreign POST = %s, want none", b)
	}
	if r := send(http.MethodPost, "/faults", mine, fault); r.status != http.StatusNoContent {
		t.Fatalf("POST faults from an allowed origin = %d %s, want 204", r.status, r.body)
	}
	if r := send(http.MethodDelete, "/faults", "", ""); r.status != http.StatusNoContent {
		t.Fatalf("DELETE faults with no Origin = %d %s, want 204", r.status, r.body)
	}
}

// On a loopback address the control API refuses a request naming another
// Host, before anything is read or changed: a page whose name was rebound
// to 127.0.0.1 (DNS rebinding) is same-origin with the double and sends no
// Origin on a GET. Loopback names are served; so is any Host on a double
// that listens on every interface, which serve --control warns about.
func TestControlForeignHost(t *testing.T) {
	t.Parallel()
	send := func(t *testing.T, hc *http.Client, method, url, host, body string) ctlReply {
		t.Helper()
		req, err := http.NewRequestWithContext(t.Context(), method, url, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Host = host
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return ctlReply{resp.StatusCode, resp.Header, b}
	}
	f := newCtlFix(t, projectopstest.WithControlAPI())
	u, err := url.Parse(f.ctl)
	if err != nil {
		t.Fatal(err)
	}
	port := u.Port()
	for _, host := range []string{"rebound.example:" + port, "rebound.example", "127.0.0.1.rebound.example:" + port, "localhost.example"} {
		for _, c := range []struct{ method, path, body string }{
			{http.MethodGet, "/routes", ""},
			{http.MethodGet, "/faults", ""},
			{http.MethodGet, "/requests", ""},
			{http.MethodPost, "/faults", `{"route":"GET /me","fault":{"status":500}}`},
		} {
			r := send(t, f.hc, c.method, f.ctl+c.path, host, c.body)
			if code, msg, _ := envelope(t, r); r.status != http.StatusForbidden || code != "FORBIDDEN" || !strings.Contains(msg, "host not allowed") {
				t.Errorf("%s %s with Host %s = %d %s, want 403 FORBIDDEN", c.method, c.path, host, r.status, r.body)
			}
		}
	}
	if b := f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body; string(b) != `{"faults":[]}` {
		t.Fatalf("GET faults after the foreign POST = %s, want none", b)
	}
	for _, host := range []string{"localhost:" + port, "LOCALHOST", "127.0.0.1:" + port, "127.0.0.2", "[::1]:" + port} {
		if r := send(t, f.hc, http.MethodGet, f.ctl+"/routes", host, ""); r.status != http.StatusOK {
			t.Errorf("GET routes with Host %s = %d %s, want 200", host, r.status, r.body)
		}
	}

	wide := projectopstest.NewTestServer(t, projectopstest.WithControlAPI())
	if _, err := wide.StartAt("0.0.0.0:0"); err != nil {
		t.Fatal(err)
	}
	if r := send(t, f.hc, http.MethodGet, wide.ControlURL()+"/routes", "lan-name.example", ""); r.status != http.StatusOK {
		t.Fatalf("GET routes on a double listening on every interface, with Host lan-name.example = %d %s, want 200", r.status, r.body)
	}
}

// A client's X-Request-Id holding a key is answered as sent but shown
// redacted in the request log, through Requests and GET requests alike;
// so are a key and a tunnel's secret pasted into a path.
func TestControlRequestLogRedactsSecrets(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	p := f.srv.Default().ProjectID
	r, err := f.do(t, http.MethodPost, f.base+"/projects/"+p+"/tunnels", `{"name":"local"}`, f.key)
	if err != nil || r.status != http.StatusCreated {
		t.Fatalf("create tunnel = %d %s, %v", r.status, r.body, err)
	}
	var grant struct {
		URL string `json:"url"`
	}
	decodeJSON(t, r.body, &grant)
	u, err := url.Parse(grant.URL)
	if err != nil || u.Query().Get("k") == "" {
		t.Fatalf("grant url %q has no secret (%v)", grant.URL, err)
	}
	secret := u.Query().Get("k")
	f.control(t, http.MethodDelete, "/requests", "", http.StatusNoContent)

	const shapedKey = "sk_demo_owner_0000000000000000" // a valid request id, shaped like a key
	for _, id := range []string{shapedKey, f.key} {
		req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.base+"/me", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+f.key)
		req.Header.Set("X-Request-Id", id)
		resp, err := f.hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Header.Get("X-Request-Id"); got != id {
			t.Fatalf("X-Request-Id answered %q, want the client's id as sent", got)
		}
	}
	for _, u := range []string{f.base + "/projects/" + f.key + "/hosts", f.base + "/projects/" + secret, grant.URL} {
		if _, err := f.do(t, http.MethodGet, u, "", f.key); err != nil {
			t.Fatal(err)
		}
	}
	b := f.control(t, http.MethodGet, "/requests", "", http.StatusOK).body
	logged := fmt.Sprint(f.srv.Requests())
	for _, secret := range []string{shapedKey, f.key, secret} {
		if strings.Contains(string(b), secret) || strings.Contains(logged, secret) {
			t.Fatalf("the request log shows a secret:\nGET requests: %s\nRequests(): %s", b, logged)
		}
	}
	var log struct {
		Requests []struct {
			RequestID string `json:"requestId"`
		} `json:"requests"`
	}
	decodeJSON(t, b, &log)
	if len(log.Requests) != 5 || log.Requests[0].RequestID != "REDACTED" || log.Requests[1].RequestID != "REDACTED" {
		t.Fatalf("GET requests = %s, want the two ids REDACTED", b)
	}
}

// GET faults shows a duration set through SetFault rounded up to whole
// milliseconds, so what it shows POST faults takes back; at the top of
// time.Duration's range, where rounding up would pass the most POST
// faults takes, it shows that most.
func TestControlFaultsRoundDurationsUp(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	f.srv.SetFault("GET /me", projectopstest.Fault{Latency: 500 * time.Microsecond})
	f.srv.SetFault("GET /projects/{projectId}/hosts", projectopstest.Fault{Status: 503, RetryAfter: 1500 * time.Microsecond})
	f.srv.SetFault("GET /projects/{projectId}/servers", projectopstest.Fault{Status: 429, RetryAfter: math.MaxInt64})
	var got struct {
		Faults []struct {
			Route string          `json:"route"`
			Fault json.RawMessage `json:"fault"`
		} `json:"faults"`
	}
	decodeJSON(t, f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body, &got)
	want := map[string]string{"GET /me": `{"latencyMs":1}`, "GET /projects/{projectId}/hosts": `{"status":503,"retryAfterMs":2}`,
		"GET /projects/{projectId}/servers": `{"status":429,"retryAfterMs":9223372036854}`}
	if len(got.Faults) != 3 {
		t.Fatalf("GET faults = %+v, want three", got)
	}
	for _, st := range got.Faults {
		if string(st.Fault) != want[st.Route] {
			t.Errorf("%s fault = %s, want %s", st.Route, st.Fault, want[st.Route])
		}
		f.control(t, http.MethodPost, "/faults", `{"route":"`+st.Route+`","fault":`+string(st.Fault)+`}`, http.StatusNoContent)
	}
}

// POST faults replaces a route's fault; DELETE faults?route= clears that
// route's only, 204 whether one was set or not; an unknown route or query
// parameter is refused and clears nothing.
func TestControlClearOneFault(t *testing.T) {
	t.Parallel()
	f := newCtlFix(t, projectopstest.WithControlAPI())
	f.control(t, http.MethodPost, "/faults", `{"route":"GET /me","fault":{"status":500}}`, http.StatusNoContent)
	f.control(t, http.MethodPost, "/faults", `{"route":"GET /me","fault":{"status":502}}`, http.StatusNoContent)
	f.control(t, http.MethodPost, "/faults", `{"route":"GET /projects/{projectId}/hosts","fault":{"status":503}}`, http.StatusNoContent)
	if r, _ := f.me(t); r.status != http.StatusBadGateway {
		t.Fatalf("GET /me = %d, want the replacing fault's 502", r.status)
	}
	for _, c := range []struct{ query, msg string }{
		{"?route=GET%20/nope", `no route "GET /nope"`},
		{"?route=", "route is required"},
		{"?rout=GET%20/me", `unknown query parameter "rout"`},
		{"?route=GET%20/me&route=GET%20/projects/{projectId}/hosts", "route is given more than once"},
	} {
		r := f.control(t, http.MethodDelete, "/faults"+c.query, "", http.StatusBadRequest)
		if code, msg, _ := envelope(t, r); code != "VALIDATION_ERROR" || !strings.Contains(msg, c.msg) {
			t.Errorf("DELETE faults%s = %s, want VALIDATION_ERROR saying %q", c.query, r.body, c.msg)
		}
	}
	for range 2 { // the second finds none: still 204
		f.control(t, http.MethodDelete, "/faults?route=GET%20/me", "", http.StatusNoContent)
	}
	if r, err := f.me(t); err != nil || r.status != http.StatusOK {
		t.Fatalf("GET /me after its fault was cleared = %d, %v; want 200", r.status, err)
	}
	var left struct {
		Faults []struct {
			Route string `json:"route"`
		} `json:"faults"`
	}
	decodeJSON(t, f.control(t, http.MethodGet, "/faults", "", http.StatusOK).body, &left)
	if len(left.Faults) != 1 || left.Faults[0].Route != "GET /projects/{projectId}/hosts" {
		t.Fatalf("faults left = %+v, want GET /projects/{projectId}/hosts's only", left)
	}
}

// The control API is served in process too: Client (Transport) reaches
// ControlURL before Start, and a fault set there applies to the API.
func TestControlInProcess(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithControlAPI())
	hc := srv.Client()
	resp, err := hc.Post(srv.ControlURL()+"/faults", "application/json",
		strings.NewReader(`{"route":"GET /me","fault":{"status":503,"times":1}}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		t.Fatalf("in-process POST faults = %d, want 204", resp.StatusCode)
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, srv.URL()+"/me", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+srv.Default().APIKey)
	resp, err = hc.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("GET /me = %d, want the fault's 503", resp.StatusCode)
	}
	resp, err = hc.Get(srv.ControlURL() + "/requests")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"status":503`) {
		t.Fatalf("in-process GET requests = %d %s, %v; want the faulted GET /me", resp.StatusCode, b, err)
	}
}

// An in-process control request may run while StartAt starts the
// listener: under -race this is a data race if the listener's
// loopback-only setting is shared unsynchronized with every control
// request. Requests run on a few goroutines from before Start to after it.
func TestControlInProcessDuringStart(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithControlAPI())
	hc := srv.Client()
	ctl := srv.ControlURL()
	get := func() error {
		resp, err := hc.Get(ctl + "/routes")
		if err != nil {
			return err
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			return fmt.Errorf("in-process GET routes = %d, want 200", resp.StatusCode)
		}
		return nil
	}
	const workers = 4
	stop := make(chan struct{})
	running := make(chan struct{}, workers)
	errs := make(chan error, workers)
	for range workers {
		go func() {
			for i := 0; ; i++ {
				if err := get(); err != nil {
					errs <- err
					return
				}
				if i == 0 {
					running <- struct{}{}
				}
				select {
				case <-stop:
					errs <- nil
					return
				default:
				}
			}
		}()
	}
	for range workers {
		<-running
	}
	_, err := srv.Start()
	close(stop)
	for range workers {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	if err != nil {
		t.Fatal(err)
	}
}

// rawStatus sends req as written on a new connection to addr and returns
// the status line of the answer.
func rawStatus(t *testing.T, addr, req string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(c).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", req, err)
	}
	return strings.TrimSpace(line)
}

// The Host check as clients spell loopback: a fully qualified name with
// its trailing dot ("localhost.", what curl sends for http://localhost./)
// and any spelling of a loopback IP are served; a name that is not
// loopback, a shortened IPv4 form and a request with no Host (HTTP/1.0)
// are refused. The API itself takes any Host.
func TestControlHostSpellings(t *testing.T) {
	t.Parallel()
	for _, listen := range []string{"127.0.0.1:0", "localhost:0"} {
		srv := projectopstest.NewTestServer(t, projectopstest.WithControlAPI())
		if _, err := srv.StartAt(listen); err != nil {
			t.Fatal(err)
		}
		u, err := url.Parse(srv.ControlURL())
		if err != nil {
			t.Fatal(err)
		}
		path, port := u.Path+"/routes", u.Port()
		get := func(host string) string {
			return rawStatus(t, u.Host, "GET "+path+" HTTP/1.1\r\nHost: "+host+"\r\nConnection: close\r\n\r\n")
		}
		for _, host := range []string{"localhost", "LocalHost", "localhost.", "localhost.:" + port,
			"127.0.0.1.", "127.0.0.1.:" + port, "[::1]", "[0:0:0:0:0:0:0:1]:" + port, "[::ffff:127.0.0.1]"} {
			if got := get(host); got != "HTTP/1.1 200 OK" {
				t.Errorf("listening on %s, GET routes with Host %q = %s, want 200", listen, host, got)
			}
		}
		for _, host := range []string{"evil.example", "localhost..", "localhost.example.", "127.1"} {
			if got := get(host); got != "HTTP/1.1 403 Forbidden" {
				t.Errorf("listening on %s, GET routes with Host %q = %s, want 403", listen, host, got)
			}
		}
		if got := rawStatus(t, u.Host, "GET "+path+" HTTP/1.0\r\n\r\n"); got != "HTTP/1.0 403 Forbidden" {
			t.Errorf("listening on %s, an HTTP/1.0 GET routes with no Host = %s, want 403", listen, got)
		}
		me := "GET " + apiPath(t, srv) + "/me HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer " +
			srv.Default().APIKey + "\r\nConnection: close\r\n\r\n"
		if got := rawStatus(t, u.Host, me); got != "HTTP/1.1 200 OK" {
			t.Errorf("listening on %s, GET /me with Host evil.example = %s, want 200: only the control API checks Host", listen, got)
		}
	}
}

// apiPath is the path of srv's API base URL (/api/v1).
func apiPath(t *testing.T, srv *projectopstest.Server) string {
	t.Helper()
	u, err := url.Parse(srv.URL())
	if err != nil {
		t.Fatal(err)
	}
	return u.Path
}

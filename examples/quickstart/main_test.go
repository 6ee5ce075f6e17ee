package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"

	"github.com/projectops/projectops-go/projectopstest"
)

func TestEmbeddedTour(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	if err := run(t.Context(), &out, func(string) string { return "" }); err != nil {
		t.Fatalf("run: %v\n%s", err, &out)
	}
	for _, want := range []string{
		"against the embedded double",
		"me: Olive Owner <owner@demo.test>",
		"host catalog: 16 hosts (source bundled)",
		`project: prj_demo "Demo Project"`,
		`server: srv_filesystem "filesystem" over stdio`,
		`chatbox: cbx_support "Support bot"`,
		"validated srv_demo: projectops-demo 1.0.0",
		"doctor: ready (3 tools; 2 prompts; 2 resources)",
		"tools: add, divide, echo",
		"echo: Echo: hello from the quickstart",
		`divide by zero: isError=true "cannot divide by zero"`,
		"prompt greet: Good day, Ada!",
		"resource demo://readme: # Demo server",
		"export: 3 tools, 2 prompts, 2 resources; unchanged on re-export: true",
		`created host hst_1 "Quickstart host" from template claude`,
		`renamed host hst_1 to "Quickstart host (renamed)"`,
		"project prj_demo now has 3 hosts",
		"deleted host hst_1: true",
		"eval run run_1 started on suite evs_smoke",
		"eval run run_1 completed: passed, pass rate 100%",
		"reported go test: 1 passed, 1 failed as run run_2 (failed)",
		"read back: example.com/shop.TestRefund failed",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, &out)
		}
	}
}

// With a key in the environment the tour is read-only and goes wherever
// PROJECTOPS_BASE_URL points: here, the double on loopback.
func TestConfiguredServiceTour(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithSeed(projectopstest.DemoSeed()),
		projectopstest.WithRateLimit(600, 50))
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(option.EnvAPIKey, projectopstest.DemoMemberKey)
	t.Setenv(option.EnvBaseURL, base)
	var out bytes.Buffer
	if err := run(t.Context(), &out, func(k string) string { return map[string]string{option.EnvAPIKey: "set"}[k] }); err != nil {
		t.Fatalf("run: %v\n%s", err, &out)
	}
	if !strings.Contains(out.String(), "read-only tour of "+base) || !strings.Contains(out.String(), "me: Max Member") {
		t.Errorf("unexpected output:\n%s", &out)
	}
	for _, r := range srv.Requests() {
		if r.Method != "GET" {
			t.Errorf("read-only tour sent %s %s", r.Method, r.Path)
		}
	}
	if strings.Contains(out.String(), projectopstest.DemoMemberKey) {
		t.Error("the key was printed")
	}
}

// tourAgainst runs the server tour against a stub service answering the
// routes whose path ends as a key of bodies (404 elsewhere).
func tourAgainst(t *testing.T, bodies map[string]string) (string, error) {
	t.Helper()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		for suffix, body := range bodies {
			if strings.HasSuffix(r.URL.Path, suffix) {
				_, _ = w.Write([]byte(body))
				return
			}
		}
		w.WriteHeader(http.StatusNotFound)
		_, _ = w.Write([]byte(`{"code":"NOT_FOUND","message":"no such route"}`))
	}))
	t.Cleanup(hs.Close)
	client, err := projectops.NewClient(option.WithBaseURL(hs.URL), option.WithAPIKey("sk_test"),
		option.WithoutEnvironment(), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err = serverTour(t.Context(), &out, client, "prj_1")
	return out.String(), err
}

const validatedWithoutInitInfo = `{"success":true,"status":"connected","initInfo":null}`

// InitInfo is nullable: against a service that answers validate with none,
// the tour says so and goes on (to fail at doctor here) rather than panic.
func TestTourWithoutInitInfo(t *testing.T) {
	t.Parallel()
	out, err := tourAgainst(t, map[string]string{"/validate": validatedWithoutInitInfo})
	if want := "validated srv_demo: no initialization info"; !strings.Contains(out, want) || err == nil {
		t.Errorf("tour = %q, %v; want %q, then the doctor's error", out, err, want)
	}
}

// A doctor report may leave checks out (the reference's checks members are
// optional): the tour prints that they were not reported.
func TestTourDoctorWithoutChecks(t *testing.T) {
	t.Parallel()
	out, err := tourAgainst(t, map[string]string{"/validate": validatedWithoutInitInfo,
		"/doctor": `{"generatedAt":"2026-11-01T00:00:00Z","status":"error",` +
			`"connection":{"status":"error","detail":"refused"},"checks":{"connection":{"status":"error","detail":"refused"}}}`})
	if want := "doctor: error (not reported; not reported; not reported)"; !strings.Contains(out, want) || err == nil {
		t.Errorf("tour = %q, %v; want %q, then the tools listing's error", out, err, want)
	}
}

// InitInfo, and the server's info in it, are nullable: the tour prints
// what there is.
func TestDescribeInit(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		ii   *servers.InitInfo
		want string
	}{
		{nil, "no initialization info"},
		{&servers.InitInfo{ProtocolVersion: "2025-11-25"}, "unnamed server, protocol 2025-11-25"},
		{&servers.InitInfo{ProtocolVersion: "2025-11-25", ServerVersion: &mcp.Implementation{Name: "s", Version: "1"}}, "s 1, protocol 2025-11-25"},
	} {
		if got := describeInit(c.ii); got != c.want {
			t.Errorf("describeInit(%+v) = %q, want %q", c.ii, got, c.want)
		}
	}
}

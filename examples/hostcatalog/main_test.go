package main

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// The example runs against the double on loopback, reached through the
// environment as a user would point it.
func TestRun(t *testing.T) {
	srv := projectopstest.NewTestServer(t)
	base, err := srv.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv(option.EnvBaseURL, base)
	t.Setenv(option.EnvAPIKey, "")
	var out strings.Builder
	if err := run(t.Context(), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(bundled)") || !strings.Contains(out.String(), "claude") {
		t.Errorf("output lacks the bundled catalog's hosts:\n%s", out.String())
	}
}

// A program built on catalog.NewService links neither the MCP SDK nor the
// websocket library: what only the servers and tunnels services need.
func TestLinksOnlyTheCatalog(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, banned := range []string{
			"github.com/modelcontextprotocol/go-sdk", "github.com/coder/websocket",
			"github.com/projectops/projectops-go/servers", "github.com/projectops/projectops-go/tunnels",
			"github.com/projectops/projectops-go/projectopstest",
		} {
			if pkg == banned || strings.HasPrefix(pkg, banned+"/") {
				t.Errorf("the program links %s", pkg)
			}
		}
	}
}

package tunnels_test

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/leaktest"
	"github.com/projectops/projectops-go/tunnels"
)

// TestGrantSecretsNeverPrinted: a grant's URL secret, however its name is
// spelled (k, K, %6B), and its connect token never show in any verb or
// log, nested or behind a pointer, nor in PublicURL.
func TestGrantSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"https://relay.example/t/slug/mcp?k=SEKRIT-K1", "https://relay.example/t/slug/mcp?a=1&K=SEKRIT-K2",
		"https://relay.example/t/slug/mcp?%6B=SEKRIT-K3"} {
		g := tunnels.Grant{ServerID: "srv", Name: "n", Slug: "slug", URL: u, ConnectToken: "ct_SEKRIT-CT",
			PreviousURL: "https://relay.example/t/slug/mcp?k=SEKRIT-PREV", RelayWSURL: "wss://relay.example/ws"}
		leaktest.NoLeak(t, "Grant "+u, g, false, "SEKRIT")
		if s := g.PublicURL(); strings.Contains(s, "SEKRIT") {
			t.Errorf("PublicURL() = %s", s)
		}
	}
}

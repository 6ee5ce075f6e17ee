package hosts_test

import (
	"testing"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/leaktest"
)

// TestConfigSecretsNeverPrinted: a host config's header values and a
// tunnel URL's ?k= secret inside it never show in any verb or log of the
// types that hold a config, nested or behind a pointer.
func TestConfigSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"connectionDefaults":{"headers":{"Authorization":"Bearer SEKRIT-H1"}}}`,
		`{"connectionDefaults":{"h\u0065aders":{"Authorization":"Bearer SEKRIT-H2"}}}`,
		`{"servers":[{"url":"https://relay.example/t/s/mcp?k=SEKRIT-K3"}]}`,
		`{"servers":[{"url":"https://relay.example/t/s/mcp?a=1\u0026K=SEKRIT-K4"}]}`,
		`{"serverOverrides":{"x":{"headersOverride":{"X-Api-Key":"SEKRIT-H5"}}}}`,
	} {
		c := hosts.Config(raw)
		leaktest.NoLeak(t, "Config "+raw, c, false, "SEKRIT")
		leaktest.NoLeak(t, "CreateParams "+raw, hosts.CreateParams{Name: "n", Config: c}, false, "SEKRIT")
		leaktest.NoLeak(t, "UpdateParams "+raw, hosts.UpdateParams{Name: "n", Config: c}, false, "SEKRIT")
		leaktest.NoLeak(t, "HostDetail "+raw, hosts.HostDetail{Config: c}, false, "SEKRIT")
	}
}

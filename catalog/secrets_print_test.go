package catalog_test

import (
	"testing"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/internal/leaktest"
)

// TestChatboxSecretsNeverPrinted: a chatbox server's tunnel secret (?k=,
// ?K=) never shows in any verb or log, nested or behind a pointer (fmt's
// bad-verb path prints a pointee without a Format method raw).
func TestChatboxSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"https://relay.example/t/slug/mcp?k=SEKRIT-K1", "https://relay.example/t/slug/mcp?a=1&K=SEKRIT-K2"} {
		s := catalog.ChatboxServer{ID: "srv", Name: "n", URL: u}
		leaktest.NoLeak(t, "ChatboxServer "+u, s, false, "SEKRIT")
		leaktest.NoLeak(t, "ChatboxDetail "+u, catalog.ChatboxDetail{Servers: []catalog.ChatboxServer{s}}, false, "SEKRIT")
	}
}

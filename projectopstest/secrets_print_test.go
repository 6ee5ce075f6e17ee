package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/internal/leaktest"
	"github.com/projectops/projectops-go/projectopstest"
)

// TestSpecSecretsNeverPrinted: the double's types that hold a Secret (or
// an ingested run's replay tokens) never show it in any verb or log,
// nested or behind a pointer (fmt's bad-verb path prints a pointee without
// a Format method raw).
func TestSpecSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	key := projectopstest.APIKeySpec{ID: "key_1", UserID: "usr_1", Secret: "sk_SEKRIT-KEY"}
	leaktest.NoLeak(t, "APIKeySpec", key, false, "SEKRIT")
	srv := projectopstest.ServerSpec{ProjectID: "prj_1", Name: "n", TransportType: "stdio", Command: "run",
		Env: map[string]projectopstest.Secret{"TOKEN": "SEKRIT-ENV"}, Headers: map[string]projectopstest.Secret{"Authorization": "SEKRIT-HDR"},
		ClientSecret: "SEKRIT-CS"}
	leaktest.NoLeak(t, "ServerSpec", srv, false, "SEKRIT")
	leaktest.NoLeak(t, "Seed", projectopstest.Seed{APIKeys: []projectopstest.APIKeySpec{key}, Servers: []projectopstest.ServerSpec{srv}}, false, "SEKRIT")
	leaktest.NoLeak(t, "ModelRequest", projectopstest.ModelRequest{Model: "m", APIKey: "SEKRIT-MODEL"}, false, "SEKRIT")
	leaktest.NoLeak(t, "IngestedRun", projectopstest.IngestedRun{ID: "run_1", Params: ingest.RunParams{SuiteName: "s",
		ServerReplayConfigs: []ingest.ServerReplayConfig{{ServerID: "srv", URL: "https://x.example/mcp", AccessToken: "SEKRIT-AT"}}}}, false, "SEKRIT")
}

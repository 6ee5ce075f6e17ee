package evals_test

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
)

// slog's JSON handler encodes values with encoding/json unless they are
// slog.LogValuers, so fmt.Formatter alone does not keep keys out of logs.
func TestModelAPIKeysNeverLog(t *testing.T) {
	t.Parallel()
	k := evals.ModelAPIKeys{"openai": "sk-proj-secret", "anthropic": "sk-ant-secret"}
	p := evals.RunParams{SuiteID: "evs_1", SuiteName: "smoke", ServerIDs: []string{"srv_1"}, ModelAPIKeys: k}
	var buf bytes.Buffer
	for _, h := range []slog.Handler{slog.NewJSONHandler(&buf, nil), slog.NewTextHandler(&buf, nil)} {
		slog.New(h).Info("run", "keys", k, "params", p, "ptr", &p)
	}
	out := buf.String()
	if strings.Contains(out, "secret") {
		t.Errorf("log shows a key:\n%s", out)
	}
	for _, want := range []string{"evs_1", "smoke", "srv_1", "openai", "anthropic"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lost %q:\n%s", want, out)
		}
	}
}

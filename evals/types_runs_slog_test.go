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

// The run request's log record names the environment, the host and how
// many cases it narrows to, which tell one launch of a suite from another.
func TestRunParamsLogsTarget(t *testing.T) {
	t.Parallel()
	p := evals.RunParams{SuiteID: "evs_1", EnvironmentID: "env_7", NamedHostID: "host_3", CaseIDs: []string{"c1", "c2"}}
	var buf bytes.Buffer
	slog.New(slog.NewJSONHandler(&buf, nil)).Info("run", "params", p)
	for _, want := range []string{`"environmentId":"env_7"`, `"namedHostId":"host_3"`, `"caseIds":2`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("log lacks %s:\n%s", want, buf.String())
		}
	}
}

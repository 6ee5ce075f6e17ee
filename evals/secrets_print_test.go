package evals_test

import (
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/leaktest"
)

// TestModelAPIKeysNeverPrinted: model API keys never show in any verb or
// log, nested or behind a pointer (fmt's bad-verb path prints a pointee
// without a Format method raw).
func TestModelAPIKeysNeverPrinted(t *testing.T) {
	t.Parallel()
	leaktest.NoLeak(t, "ModelAPIKeys", evals.ModelAPIKeys{"openai": "SEKRIT-OAI"}, true, "SEKRIT")
	p := evals.RunParams{SuiteName: "s", ModelAPIKeys: evals.ModelAPIKeys{"openai": "SEKRIT-OAI"}}
	leaktest.NoLeak(t, "RunParams", p, true, "SEKRIT")
}

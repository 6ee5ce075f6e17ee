package ingest_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// TestHostConfigPrintsReadably: a nil host config, which every RunParams
// without one holds, prints as an empty one under every verb (as
// evals.ModelAPIKeys(nil) does), and one that does not encode says so; the
// type name is never glued to JSON null or to a quoted marker.
func TestHostConfigPrintsReadably(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  ingest.HostConfig
		want string
	}{
		{"nil", nil, "HostConfig{}"},
		{"empty", ingest.HostConfig{}, "HostConfig{}"},
		{"set", ingest.HostConfig{"temperature": 0.7}, `HostConfig{"temperature":0.7}`},
		{"unencodable", ingest.HostConfig{"temperature": math.NaN()}, "HostConfig(unencodable)"},
	} {
		for _, verb := range []string{"%v", "%+v", "%s", "%#v"} {
			if got := fmt.Sprintf(verb, tc.cfg); got != tc.want {
				t.Errorf("%s: fmt.Sprintf(%q) = %q, want %q", tc.name, verb, got, tc.want)
			}
		}
	}
	if got := fmt.Sprintf("%+v", ingest.RunParams{SuiteName: "s"}); !strings.Contains(got, "HostConfig:HostConfig{}") {
		t.Errorf("%%+v of a RunParams without host config = %q, want HostConfig:HostConfig{}", got)
	}
}

package evals_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
)

// A decoded pass criteria without minimumPassRate is the service's default
// (100), so a file re-sent through the SDK keeps its meaning; an explicit
// 0 stays 0.
func TestPassCriteriaMissingRateIsDefault(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want float64
	}{{`{}`, 100}, {`{"minimumPassRate":0}`, 0}, {`{"minimumPassRate":85}`, 85}} {
		var e evals.PassCriteria
		var i ingest.PassCriteria
		if err := json.Unmarshal([]byte(tt.in), &e); err != nil || e.MinimumPassRate != tt.want {
			t.Errorf("evals %s: %v, %v; want %v", tt.in, e.MinimumPassRate, err, tt.want)
		}
		if err := json.Unmarshal([]byte(tt.in), &i); err != nil || i.MinimumPassRate != tt.want {
			t.Errorf("ingest %s: %v, %v; want %v", tt.in, i.MinimumPassRate, err, tt.want)
		}
	}
	var p evals.RunParams
	if err := json.Unmarshal([]byte(`{"suiteName":"s","passCriteria":{}}`), &p); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(p.PassCriteria)
	if string(b) != `{"minimumPassRate":100}` {
		t.Errorf("re-encoded: %s", b)
	}
}

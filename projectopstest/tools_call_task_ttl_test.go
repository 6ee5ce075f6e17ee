package projectopstest_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// The service's tools/call schema declares taskOptions.ttl a positive
// integer, checked by zod 4, whose integers are safe ones (<= 2^53-1): 1e16 fails the schema with 400 VALIDATION_ERROR,
// before the server is looked up (not 404 for the missing server, nor 422
// for the task).
func TestToolsCallTaskTTLAboveSafeIntegerIsValidation(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for _, ttl := range []string{"1e16", "9007199254740992", "1e300"} {
		r := inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/servers/srv_missing/tools/call", ws.APIKey,
			`{"toolName":"t","taskOptions":{"ttl":`+ttl+`}}`)
		var b struct{ Code string }
		_ = json.Unmarshal(r.body, &b)
		if r.status != 400 || b.Code != "VALIDATION_ERROR" {
			t.Errorf("ttl %s: %d %s, want 400 VALIDATION_ERROR (zod v4 int() is a safe integer)", ttl, r.status, r.body)
		}
	}
}

package projectopstest_test

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// The ingest routes at the wire level: strict bodies, the legacy ok
// envelope, the default alias, and uploads without a key over both
// transports.
func TestIngestRoutesRaw(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	for _, tg := range targets(t, srv) {
		base := "/projects/default/eval-ingest"
		ext := "raw-" + tg.name
		var st struct {
			OK     bool   `json:"ok"`
			RunID  string `json:"runId"`
			Status string `json:"status"`
			Result string `json:"result"`
		}
		tg.call(t, "POST", base+"/runs/start", ws.APIKey, `{"suiteName":"s","externalRunId":"`+ext+`"}`).decode(t, &st)
		if !st.OK || st.RunID == "" || st.Status != "running" || st.Result != "pending" {
			t.Fatalf("%s: start = %+v", tg.name, st)
		}
		for _, tt := range []struct{ path, body, field string }{
			{"/runs/start", `[]`, ""},
			{"/runs/start", `{"suiteName":"s","externalRunId":"x","bogus":1}`, "bogus"},
			{"/runs/iterations", `{"runId":"` + st.RunID + `","results":[{"caseTitle":"a","passed":true,"extra":1}]}`, "results[0].extra"},
			{"/runs/iterations", `{"runId":"` + st.RunID + `","results":[{"caseTitle":"a","passed":"yes"}]}`, "results[0].passed"},
			{"/artifacts/upload-url", `{"x":1}`, "x"},
			{"/report", `not json`, ""},
		} {
			b := tg.call(t, "POST", base+tt.path, ws.APIKey, tt.body).wantError(t, shared.CodeValidation)
			if got, _ := b.Details["field"].(string); got != tt.field {
				t.Errorf("%s %s %s: field %q, want %q", tg.name, tt.path, tt.body, got, tt.field)
			}
		}
		tg.call(t, "POST", base+"/runs/start", "", `{}`).wantError(t, shared.CodeUnauthorized)
		var up struct {
			OK        bool   `json:"ok"`
			UploadURL string `json:"uploadUrl"`
		}
		tg.call(t, "POST", base+"/artifacts/upload-url", ws.APIKey, nil).decode(t, &up)
		path := up.UploadURL[strings.Index(up.UploadURL, "/eval-ingest-uploads/"):]
		var stored struct {
			StorageID string `json:"storageId"`
		}
		tg.call(t, "POST", path, "", "raw bytes").decode(t, &stored)
		if data, _, ok := srv.Artifact(stored.StorageID); !ok || string(data) != "raw bytes" {
			t.Errorf("%s: artifact %q", tg.name, data)
		}
		tg.call(t, "POST", path, "", "again").wantError(t, shared.CodeForbidden)
	}
}

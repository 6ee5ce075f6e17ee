package ingest_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A Jest failure text over 1 MiB that holds a HAR is still redacted whole
// before its cut, so the pair rule reads the HAR as a document, for a
// Recorder that is not a Reporter too; other long texts are read in
// windows (TestCutMiddleLongTextCostBounded).
func TestJestHARPairOver1MiBRedacted(t *testing.T) {
	pad := `{"name":"X-Pad","value":"` + strings.Repeat("a", 200) + `"},`
	for _, size := range []int{900 << 10, 2 << 20} {
		har := `{"log":{"entries":[{"request":{"headers":[{"value":"S3cretPairZZ9","name":"Authorization"},` +
			strings.Repeat(pad, size/len(pad)) + `{"name":"X-End","value":"1"}]}}]}}`
		doc, err := json.Marshal(map[string]any{"testResults": []map[string]any{{"name": "a.test.js",
			"assertionResults": []map[string]any{{"title": "t", "status": "failed", "failureMessages": []string{har}}}}}})
		if err != nil {
			t.Fatal(err)
		}
		var got []ingest.Result
		rec := ingest.RecorderFunc(func(_ context.Context, r ingest.Result) error { got = append(got, r); return nil })
		if _, err := ingest.ReadJest(t.Context(), bytes.NewReader(doc), rec); err != nil {
			t.Fatal(err)
		}
		if len(got) != 1 {
			t.Fatalf("%d results", len(got))
		}
		if strings.Contains(got[0].Error, "S3cretPairZZ9") {
			t.Errorf("%d-byte failure text: the HAR's Authorization value survives the cut: %.120s", len(har), got[0].Error)
		}
	}
}

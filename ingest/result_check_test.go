package ingest_test

import (
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
)

// Record refuses, as a VALIDATION_ERROR, the titles and ids the service would
// refuse: sent, one of them would sink its whole chunk for good.
func TestRecordRefusesBadTitlesAndIDs(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, _ := newReporter(t, f.c, nil)
	long := strings.Repeat("é", 257) // 257 characters, 514 bytes
	for _, tc := range []struct {
		name, field string
		res         ingest.Result
	}{
		{"blank title", "caseTitle", ingest.Result{CaseTitle: " \t\n"}},
		{"caseId differs", "caseId", ingest.Result{CaseTitle: "a", CaseID: "c1", ExternalCaseID: "c2"}},
		{"iteration id too long", "externalIterationId", ingest.Result{CaseTitle: "a", ExternalIterationID: long}},
	} {
		wantCode(t, r.Record(t.Context(), tc.res), projectops.CodeValidation, tc.field)
	}
	// What the service takes is taken: equal ids, one id alone, 256
	// characters however many bytes.
	ok := []ingest.Result{
		{CaseTitle: "same ids", CaseID: "c1", ExternalCaseID: "c1", Passed: true},
		{CaseTitle: "case id alone", CaseID: "c2", Passed: true},
		{CaseTitle: "256 characters", ExternalIterationID: long[len("é"):], Passed: true},
	}
	record(t, r, ok)
	out, err := r.Close(t.Context())
	if err != nil || out.Err != nil {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	wantRows(t, f.srv, out.Run.RunID, ok)
}

// A Jest test whose name is blank is sent as "(unnamed test)", not refused.
func TestReadJestBlankTitle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, _ := newReporter(t, f.c, nil)
	in := `{"testResults":[{"name":"a.test.js","assertionResults":[{"fullName":"  ","title":"","status":"passed"}]}]}`
	if _, err := ingest.ReadJest(t.Context(), strings.NewReader(in), r); err != nil {
		t.Fatal(err)
	}
	out, err := r.Close(t.Context())
	if err != nil || out.Err != nil {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	wantRows(t, f.srv, out.Run.RunID, []ingest.Result{{CaseTitle: "(unnamed test)", Passed: true}})
}

package ingest_test

import (
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
)

// Report and StartRun refuse a run without what the service requires of
// every run (a suite name, an external run id of at most 256 characters, a
// pass rate between 0 and 100) client-side, as NewReporter does: a typed
// VALIDATION_ERROR naming the field, StatusCode 0, nothing sent.
func TestRunParamsRefusedBeforeSending(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ok := ingest.RunParams{SuiteName: "s", ExternalRunID: "e"}
	for field, mod := range map[string]func(*ingest.RunParams){
		"suiteName":                    func(p *ingest.RunParams) { p.SuiteName = " " },
		"externalRunId":                func(p *ingest.RunParams) { p.ExternalRunID = "" },
		"passCriteria.minimumPassRate": func(p *ingest.RunParams) { p.PassCriteria = &ingest.PassCriteria{MinimumPassRate: 101} },
	} {
		p := ok
		mod(&p)
		_, err := f.c.Ingest.StartRun(t.Context(), f.ws.ProjectID, p)
		if e := wantCode(t, err, projectops.CodeValidation, field); e.StatusCode != 0 {
			t.Errorf("StartRun without %s: answered by the service: %v", field, err)
		}
		_, err = f.c.Ingest.Report(t.Context(), f.ws.ProjectID, ingest.ReportParams{RunParams: p})
		if e := wantCode(t, err, projectops.CodeValidation, field); e.StatusCode != 0 {
			t.Errorf("Report without %s: answered by the service: %v", field, err)
		}
	}
	long := ok
	long.ExternalRunID = strings.Repeat("é", 257)
	_, err := f.c.Ingest.StartRun(t.Context(), f.ws.ProjectID, long)
	if e := wantCode(t, err, projectops.CodeValidation, "externalRunId"); e.StatusCode != 0 {
		t.Errorf("StartRun with a 257-character id: answered by the service: %v", err)
	}
	_, err = f.c.Ingest.Report(t.Context(), f.ws.ProjectID, ingest.ReportParams{RunParams: long})
	if e := wantCode(t, err, projectops.CodeValidation, "externalRunId"); e.StatusCode != 0 {
		t.Errorf("Report with a 257-character id: answered by the service: %v", err)
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for refused runs", n)
	}
}

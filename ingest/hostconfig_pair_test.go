package ingest_test

// hostConfig and hostConfigHash travel together or not at all, the hash
// computed by the SDK (reference-notes 3.8; the service's reporter omits
// the pair when it has no config).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
)

// A HostConfigHash without a HostConfig is a VALIDATION_ERROR on every way
// a run is started or reported, sent nowhere: sent alone, it would name a
// config the service never received.
func TestHostConfigHashWithoutHostConfigIsRefused(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	run := ingest.RunParams{SuiteName: "no-host", ExternalRunID: "ext-nohost-1", HostConfigHash: strings.Repeat("ab", 32)}
	_, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{Project: f.ws.ProjectID, NoSpool: true, Run: run,
		Getenv: func(string) string { return "" }})
	wantCode(t, err, projectops.CodeValidation, "hostConfigHash")
	_, err = f.c.Ingest.StartRun(ctx, f.ws.ProjectID, run)
	wantCode(t, err, projectops.CodeValidation, "hostConfigHash")
	_, err = f.c.Ingest.Report(ctx, f.ws.ProjectID, ingest.ReportParams{RunParams: run,
		Results: []ingest.Result{{CaseTitle: "case-1", Passed: true}}})
	wantCode(t, err, projectops.CodeValidation, "hostConfigHash")
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent, want none", n)
	}
	if runs := f.srv.IngestedRuns(f.ws.ProjectID); len(runs) != 0 {
		t.Errorf("runs stored: %+v", runs)
	}
}

// A spool whose run record holds a hostConfigHash (the spool never keeps
// the config itself) resumes without it, rather than sending the hash
// alone or being refused at every Resume.
func TestResumeSendsNoHostConfigHashFromTheSpool(t *testing.T) {
	t.Parallel()
	f := setup(t)
	dir := t.TempDir()
	spool := `{"kind":"run","v":1,"project":"default","run":{"suiteName":"hashed","externalRunId":"hashed-1","hostConfigHash":"` +
		strings.Repeat("ab", 32) + `"}}` + "\n" +
		`{"kind":"chunk","seq":1,"results":[{"caseTitle":"c","passed":true,"externalIterationId":"x"}]}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "hashed"+ingest.SpoolExt), []byte(spool), 0o600); err != nil {
		t.Fatal(err)
	}
	res, err := ingest.Resume(t.Context(), f.c.Ingest, dir)
	if err != nil || len(res) != 1 || res[0].Resent != 1 {
		t.Fatalf("Resume = %+v, %v", res, err)
	}
	runs := f.srv.IngestedRuns(f.ws.ProjectID)
	if len(runs) != 1 || runs[0].Params.HostConfigHash != "" || runs[0].Params.HostConfig != nil {
		t.Errorf("resumed run stored with host config %v, hash %q", runs[0].Params.HostConfig, runs[0].Params.HostConfigHash)
	}
}

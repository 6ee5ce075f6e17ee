package ingest_test

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
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

// A metadata value encoding/json cannot encode (a NaN, an infinity nested
// in a list, a channel, a func) is the caller's error, as a blank title
// is: a VALIDATION_ERROR naming metadata.<key>, the result recorded
// nowhere, and the reporter goes on.
func TestRecordRefusesUnencodableMetadata(t *testing.T) {
	t.Parallel()
	f := setup(t)
	r, _ := newReporter(t, f.c, nil)
	for name, v := range map[string]any{"nan": math.NaN(), "nested inf": []any{map[string]any{"s": math.Inf(1)}},
		"chan": make(chan int), "func": func() {}} {
		err := r.Record(t.Context(), ingest.Result{CaseTitle: "c", Passed: true, Metadata: map[string]any{"fine": 1, "k": v}})
		if e := wantCode(t, err, projectops.CodeValidation, "metadata.k"); !strings.Contains(e.Message, "metadata.k cannot be encoded as JSON") {
			t.Errorf("%s: message = %q", name, e.Message)
		}
	}
	ok := []ingest.Result{{CaseTitle: "ok", Passed: true, Metadata: map[string]any{"score": 0.5}}}
	record(t, r, ok)
	out, err := r.Close(t.Context())
	if err != nil || out.Err != nil {
		t.Fatalf("Close = %+v, %v", out, err)
	}
	wantRows(t, f.srv, out.Run.RunID, ok)
}

// leakyMarshaler fails to encode with an error that quotes a secret, as a
// value holding a credential may.
type leakyMarshaler struct{}

func (leakyMarshaler) MarshalJSON() ([]byte, error) {
	return nil, errors.New("cannot encode header secret-token")
}

// Record's refusal of a metadata value whose MarshalJSON fails names the
// key and the failing type, never the marshaler's own text, which may
// quote a credential (as hosts.NewConfig's does not).
func TestRecordUnencodableMetadataHidesMarshalerText(t *testing.T) {
	t.Parallel()
	f := setup(t)
	rep, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{SuiteName: "s"}})
	if err != nil {
		t.Fatal(err)
	}
	err = rep.Record(t.Context(), ingest.Result{CaseTitle: "c", Metadata: map[string]any{"h": leakyMarshaler{}}})
	e := wantCode(t, err, projectops.CodeValidation, "metadata.h")
	if strings.Contains(err.Error(), "secret-token") || strings.Contains(fmt.Sprintf("%+v", err), "secret-token") {
		t.Errorf("the error echoes the marshaler's text: %v", err)
	}
	if !strings.Contains(e.Message, "leakyMarshaler failed to marshal") {
		t.Errorf("message = %q, want the failing type named", e.Message)
	}
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

// A result's title reaches Record's error and the widget-upload warning
// redacted, as it is sent and spooled.
func TestRecordErrorAndLogRedactTheTitle(t *testing.T) {
	t.Parallel()
	f := setup(t)
	f.srv.SetFault(routeUploadURL, projectopstest.Fault{Status: 400})
	var logged bytes.Buffer
	r, _ := newReporter(t, f.c, func(o *ingest.ReporterOptions) {
		o.ChunkBytes = 4096
		o.Logger = slog.New(slog.NewTextHandler(&logged, nil))
	})
	secrets := []string{f.ws.APIKey, "sk_live_abcdefghijkl", "eyJhbGciOiJIUzI1NiJ9.payload"}
	title := "key " + f.ws.APIKey + " token sk_live_abcdefghijkl Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.payload"
	err := r.Record(t.Context(), ingest.Result{CaseTitle: title, Metadata: map[string]any{"score": math.NaN()}})
	if err == nil {
		t.Fatal("a NaN metadata value was accepted")
	}
	err2 := r.Record(t.Context(), ingest.Result{CaseTitle: title, Passed: true,
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "tc", ToolName: "show", ServerID: "srv_1", ResourceURI: "ui://w",
			WidgetHTML: strings.Repeat("<p>widget</p>", 1000)}}})
	if err2 != nil {
		t.Fatal(err2)
	}
	if !strings.Contains(logged.String(), "widget upload failed") {
		t.Fatalf("no warning logged: %s", logged.String())
	}
	for _, s := range secrets {
		if strings.Contains(err.Error(), s) || strings.Contains(logged.String(), s) {
			t.Errorf("secret %q in the error (%v) or the log (%s)", s, err, logged.String())
		}
	}
	if _, err := r.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
}

// NewReporter refuses run fields the service would refuse of every
// request (their results would wait in the spool for a Resume that can
// never send them).
func TestNewReporterRefusesWhatTheServiceRefuses(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// The reference's expectedIterations has no minimum: the reporter
	// takes what the service takes.
	if _, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true,
		Run: ingest.RunParams{SuiteName: "s", ExpectedIterations: -1}}); err != nil {
		t.Errorf("NewReporter with expectedIterations -1: %v", err)
	}
	long := strings.Repeat("é", 257)
	for field, run := range map[string]ingest.RunParams{
		"suiteName":     {SuiteName: "  "},
		"externalRunId": {SuiteName: "s", ExternalRunID: long},
	} {
		_, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: run})
		wantCode(t, err, projectops.CodeValidation, field)
	}
	env := func(k string) string {
		if k == ingest.EnvExternalRunID {
			return long
		}
		return ""
	}
	_, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true, Run: ingest.RunParams{SuiteName: "s"}, Getenv: env})
	wantCode(t, err, projectops.CodeValidation, "externalRunId")
	if _, err := ingest.NewReporter(f.c.Ingest, ingest.ReporterOptions{NoSpool: true,
		Run: ingest.RunParams{SuiteName: "s", ExternalRunID: long[len("é"):]}}); err != nil {
		t.Errorf("a 256-character id refused: %v", err)
	}
}

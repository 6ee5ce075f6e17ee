package ingest_test

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest"
)

// An upload URL takes one artifact without the key, once, until it expires.
func TestUploadArtifact(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	u, err := f.c.Ingest.UploadURL(ctx, ingest.DefaultProject)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(u.UploadURL, projectopstest.InProcessURL) {
		t.Fatalf("upload URL %q is not served by the double", u.UploadURL)
	}
	// No bearer is needed: a client without a key can upload.
	anon, err := projectops.NewClient(option.WithoutEnvironment(), option.WithTransport(f.srv.Transport()),
		option.WithBaseURL(f.srv.URL()))
	if err != nil {
		t.Fatal(err)
	}
	up, err := anon.Ingest.UploadArtifact(ctx, u.UploadURL, "application/xml", strings.NewReader("<testsuites/>"))
	if err != nil {
		t.Fatal(err)
	}
	data, ct, ok := f.srv.Artifact(up.StorageID)
	if !ok || string(data) != "<testsuites/>" || ct != "application/xml" {
		t.Errorf("stored %q %q %v", data, ct, ok)
	}
	// Single use.
	_, err = f.c.Ingest.UploadArtifact(ctx, u.UploadURL, "", strings.NewReader("again"))
	wantCode(t, err, projectops.CodeForbidden, "")
	// Expiry on the server's clock.
	u2, err := f.c.Ingest.UploadURL(ctx, f.ws.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	f.clock.Advance(projectopstest.UploadURLTTL)
	_, err = f.c.Ingest.UploadArtifact(ctx, u2.UploadURL, "", strings.NewReader("late"))
	wantCode(t, err, projectops.CodeForbidden, "")
	_, err = f.c.Ingest.UploadArtifact(ctx, f.srv.URL()+"/eval-ingest-uploads/nope", "", strings.NewReader("x"))
	wantCode(t, err, projectops.CodeNotFound, "")
	_, err = f.c.Ingest.UploadArtifact(ctx, "", "", strings.NewReader("x"))
	wantCode(t, err, projectops.CodeValidation, "uploadUrl")
	// A nil body is an empty artifact, as for http.NewRequest.
	u3, err := f.c.Ingest.UploadURL(ctx, f.ws.ProjectID)
	if err != nil {
		t.Fatal(err)
	}
	if up, err := f.c.Ingest.UploadArtifact(ctx, u3.UploadURL, "text/plain", nil); err != nil {
		t.Errorf("nil body: %v", err)
	} else if data, _, ok := f.srv.Artifact(up.StorageID); !ok || len(data) != 0 {
		t.Errorf("nil body stored %q %v", data, ok)
	}
	// A 5xx on the mint route is retried, as the service's reporter
	// retries it: a second URL minted is harmless.
	f.srv.SetFault(routeUploadURL, projectopstest.Fault{Status: http.StatusBadGateway, Times: 1})
	if u, err := f.c.Ingest.UploadURL(ctx, f.ws.ProjectID); err != nil || u.UploadURL == "" {
		t.Errorf("UploadURL after a 502: %+v, %v", u, err)
	}
	if st := routeStatuses(f.srv, routeUploadURL); len(st) < 2 || st[len(st)-2] != http.StatusBadGateway || st[len(st)-1] != http.StatusOK {
		t.Errorf("mint statuses = %v, want the 502 and then its retry's 200", st)
	}
}

// Start, append, finalize and report are idempotent, so 429, 5xx and
// dropped connections are retried; 400/401/403/404 never are.
func TestIngestRetries(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	f.srv.SetFault(routeStart, projectopstest.Fault{Status: 503, Times: 1})
	st, err := f.c.Ingest.StartRun(ctx, f.ws.ProjectID, ingest.RunParams{SuiteName: "s", ExternalRunID: "r"})
	if err != nil {
		t.Fatal(err)
	}
	f.srv.SetFault(routeAppend, projectopstest.Fault{Drop: true, Times: 1})
	if _, err := f.c.Ingest.AppendIterations(ctx, f.ws.ProjectID, ingest.AppendParams{RunID: st.RunID, Results: results("a", 2, 0)}); err != nil {
		t.Fatal(err)
	}
	f.srv.SetFault(routeFinalize, projectopstest.Fault{Code: projectops.CodeRateLimited, Times: 1})
	fin, err := f.c.Ingest.FinalizeRun(ctx, f.ws.ProjectID, ingest.FinalizeParams{RunID: st.RunID, ExternalRunID: "r"})
	if err != nil || fin.Summary.Total != 2 {
		t.Fatalf("finalize = %+v, %v", fin, err)
	}
	f.srv.SetFault(routeReport, projectopstest.Fault{Status: 500, Times: 1})
	if _, err := f.c.Ingest.Report(ctx, f.ws.ProjectID, ingest.ReportParams{RunParams: ingest.RunParams{SuiteName: "s", ExternalRunID: "r2"},
		Results: results("a", 1, 0)}); err != nil {
		t.Fatal(err)
	}
	for route, want := range map[string]string{routeStart: "[503 200]", routeAppend: "[0 200]", routeFinalize: "[429 200]", routeReport: "[500 200]"} {
		if got := fmtInts(routeStatuses(f.srv, route)); got != want {
			t.Errorf("%s: statuses %s, want %s", route, got, want)
		}
	}
	for _, code := range []projectops.Code{projectops.CodeValidation, projectops.CodeUnauthorized, projectops.CodeForbidden, projectops.CodeNotFound} {
		f.srv.ResetRequests()
		f.srv.SetFault(routeStart, projectopstest.Fault{Code: code})
		_, err := f.c.Ingest.StartRun(ctx, f.ws.ProjectID, ingest.RunParams{SuiteName: "s", ExternalRunID: "r3"})
		wantCode(t, err, code, "")
		if n := len(routeStatuses(f.srv, routeStart)); n != 1 {
			t.Errorf("%s: %d attempts, want 1", code, n)
		}
	}
}

func fmtInts(v []int) string {
	var b strings.Builder
	b.WriteString("[")
	for i, n := range v {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(strconv.Itoa(n))
	}
	return b.String() + "]"
}

// An upload URL that UploadURL can never have minted (relative, without a
// scheme, not http or https, unparsable) is a client-side VALIDATION_ERROR
// on uploadUrl, sent nowhere, and the error never shows it: it is a
// capability. The double's in-process transport would otherwise send a
// relative one.
func TestUploadArtifactRefusesBadURL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for _, u := range []string{"relative/secret-cap", "example.com/upload/secret-cap", "ftp://files.example/secret-cap",
		"http://[bad/secret-cap", "/api/v1/secret-cap", "http:///secret-cap", "https://exa mple.com/secret-cap"} {
		_, err := f.c.Ingest.UploadArtifact(t.Context(), u, "text/plain", strings.NewReader("x"))
		e := wantCode(t, err, projectops.CodeValidation, "uploadUrl")
		if e.StatusCode != 0 || strings.Contains(err.Error(), "secret-cap") || strings.Contains(fmt.Sprintf("%#v", e), "secret-cap") {
			t.Errorf("UploadArtifact(%q) = %#v; want a client-side error that does not show the URL", u, e)
		}
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Errorf("%d requests sent for refused upload URLs", n)
	}
}

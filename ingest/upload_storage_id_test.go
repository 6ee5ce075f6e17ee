package ingest_test

// An upload counts as stored only when its answer names the blob
// (storageId), as the service's reporter takes it (uploadBlobToConvex).

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
)

// wireRequest is one request a fakeIngest backend received.
type wireRequest struct {
	Path string
	Body string
}

// fakeIngest answers the ingest routes like the service, and the upload
// URL it mints with upload (the raw answer to the artifact POST). It
// returns a service on it and the requests it received.
func fakeIngest(t *testing.T, upload string) (*ingest.Service, func() []wireRequest) {
	t.Helper()
	return fakeIngestUploads(t, func(int) (int, string) { return http.StatusOK, upload })
}

// fakeIngestUploads is fakeIngest answering the nth upload (from 1) with
// the status and body upload returns.
func fakeIngestUploads(t *testing.T, upload func(n int) (int, string)) (*ingest.Service, func() []wireRequest) {
	t.Helper()
	var mu sync.Mutex
	uploads := 0
	var got []wireRequest
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, wireRequest{r.URL.Path, string(b)})
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		switch p := r.URL.Path; {
		case strings.HasSuffix(p, "/artifacts/upload-url"):
			_, _ = io.WriteString(w, `{"ok":true,"uploadUrl":"`+srv.URL+`/upload/1"}`)
		case strings.HasPrefix(p, "/upload/"):
			mu.Lock()
			uploads++
			code, body := upload(uploads)
			mu.Unlock()
			w.WriteHeader(code)
			_, _ = io.WriteString(w, body)
		case strings.HasSuffix(p, "/runs/start"):
			_, _ = io.WriteString(w, `{"ok":true,"suiteId":"s1","runId":"r1","status":"running","result":"pending"}`)
		case strings.HasSuffix(p, "/runs/iterations"):
			_, _ = io.WriteString(w, `{"ok":true,"inserted":1,"skipped":0,"total":1}`)
		default:
			_, _ = io.WriteString(w, `{"ok":true,"suiteId":"s1","runId":"r1","status":"completed","result":"passed","summary":{"total":1,"passed":1,"failed":0,"passRate":1}}`)
		}
	}))
	t.Cleanup(srv.Close)
	svc, err := ingest.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_test_key0000"),
		option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	return svc, func() []wireRequest { mu.Lock(); defer mu.Unlock(); return append([]wireRequest(nil), got...) }
}

// sentSnapshots is every widget snapshot the requests carried in results.
func sentSnapshots(t *testing.T, reqs []wireRequest) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, r := range reqs {
		if !strings.HasSuffix(r.Path, "/report") && !strings.HasSuffix(r.Path, "/runs/iterations") {
			continue
		}
		var body struct {
			Results []struct {
				WidgetSnapshots []map[string]any `json:"widgetSnapshots"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(r.Body), &body); err != nil {
			t.Fatal(err)
		}
		for _, res := range body.Results {
			out = append(out, res.WidgetSnapshots...)
		}
	}
	return out
}

// An upload answered 200 without a storageId is ErrNoStorageID, never an
// Upload that names no blob.
func TestUploadArtifactWithoutStorageIDIsAnError(t *testing.T) {
	t.Parallel()
	for _, answer := range []string{`{}`, `{"storageId":""}`, `{"ok":true}`} {
		svc, _ := fakeIngest(t, answer)
		u, err := svc.UploadURL(t.Context(), ingest.DefaultProject)
		if err != nil {
			t.Fatal(err)
		}
		up, err := svc.UploadArtifact(t.Context(), u.UploadURL, "text/html", strings.NewReader("<p>x</p>"))
		if !errors.Is(err, ingest.ErrNoStorageID) || up != nil {
			t.Errorf("answer %s: UploadArtifact = %+v, %v; want ErrNoStorageID", answer, up, err)
		}
		if err != nil && strings.Contains(err.Error(), u.UploadURL) {
			t.Errorf("the error shows the upload URL: %v", err)
		}
	}
}

// A widget upload answered without a storageId is a failed upload, handled
// as any other: the result goes out with its HTML dropped (a visible
// marker, counted in Truncated, logged), never as a snapshot with neither
// widgetHtml nor widgetHtmlBlobId.
func TestWidgetUploadWithoutStorageIDIsAFailedUpload(t *testing.T) {
	t.Parallel()
	svc, reqs := fakeIngest(t, `{}`)
	var logged bytes.Buffer
	r, err := ingest.NewReporter(svc, ingest.ReporterOptions{ChunkBytes: 4096, SpoolDir: t.TempDir(),
		Getenv: func(string) string { return "" }, Logger: slog.New(slog.NewTextHandler(&logged, nil)),
		Run: ingest.RunParams{SuiteName: "widgets", ExternalRunID: "ext-widget-1"}})
	if err != nil {
		t.Fatal(err)
	}
	html := "<html>" + strings.Repeat("w", 6000) + "</html>" // too large for a 4 KiB chunk: uploaded
	if err := r.Record(t.Context(), ingest.Result{CaseTitle: "happy-path", Passed: true,
		WidgetSnapshots: []ingest.WidgetSnapshot{{ToolCallID: "call-1", ToolName: "create_view",
			ServerID: "server-1", ResourceURI: "ui://widget/create-view.html", WidgetHTML: html}}}); err != nil {
		t.Fatal(err)
	}
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	snaps := sentSnapshots(t, reqs())
	if len(snaps) != 1 {
		t.Fatalf("snapshots sent: %v", snaps)
	}
	s := snaps[0]
	if _, ok := s["widgetHtmlBlobId"]; ok {
		t.Errorf("widgetHtmlBlobId sent after an upload that named no blob: %v", s)
	}
	if h, _ := s["widgetHtml"].(string); !strings.Contains(h, "widget HTML dropped") || s["toolCallId"] != "call-1" {
		t.Errorf("snapshot sent without the dropped-HTML marker or its fields: %v", s)
	}
	if out.Truncated != 1 || !strings.Contains(logged.String(), "widget upload failed") || !strings.Contains(logged.String(), "storageId") {
		t.Errorf("the lost HTML went unreported: truncated %d, log %q", out.Truncated, logged.String())
	}
}

// Two snapshots, the first upload stored, the second answered without a
// storageId: the first's blob id then leaves room for the second's HTML
// inline. Nothing is dropped, so nothing is counted in Truncated nor
// warned of as dropped.
func TestPartialWidgetUploadFailureKeepsTheRestInline(t *testing.T) {
	t.Parallel()
	svc, reqs := fakeIngestUploads(t, func(n int) (int, string) {
		if n == 1 {
			return http.StatusOK, `{"storageId":"stg_1"}`
		}
		return http.StatusOK, `{}`
	})
	var logged bytes.Buffer
	r, err := ingest.NewReporter(svc, ingest.ReporterOptions{ChunkBytes: 4096, SpoolDir: t.TempDir(),
		Getenv: func(string) string { return "" }, Logger: slog.New(slog.NewTextHandler(&logged, nil)),
		Run: ingest.RunParams{SuiteName: "widgets", ExternalRunID: "ext-widget-2"}})
	if err != nil {
		t.Fatal(err)
	}
	h := "<html>" + strings.Repeat("w", 2500) + "</html>" // two fit no 4 KiB chunk, one does
	snap := func(id string) ingest.WidgetSnapshot {
		return ingest.WidgetSnapshot{ToolCallID: id, ToolName: "v", ServerID: "s", ResourceURI: "ui://w", WidgetHTML: h}
	}
	if err := r.Record(t.Context(), ingest.Result{CaseTitle: "two", Passed: true,
		WidgetSnapshots: []ingest.WidgetSnapshot{snap("a"), snap("b")}}); err != nil {
		t.Fatal(err)
	}
	out, err := r.Close(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	snaps := sentSnapshots(t, reqs())
	if len(snaps) != 2 || snaps[0]["widgetHtmlBlobId"] != "stg_1" || snaps[1]["widgetHtml"] != h || out.Truncated != 0 {
		t.Fatalf("snapshots sent: %v, truncated %d; want the first by blob id, the second inline, nothing cut", snaps, out.Truncated)
	}
	if l := logged.String(); strings.Contains(l, "level=WARN") {
		t.Errorf("warned though no HTML was dropped: %s", l)
	}
}

package ingest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// A Reporter applies ReporterOptions.RequestOptions for as long as it
// lives: it keeps a copy, so a caller that reuses its slice after
// NewReporter returns changes none of the reporter's requests (nor races
// with its uploads, nor slips in an option NewReporter refuses).
func TestReporterKeepsCallersRequestOptionsSlice(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	var mu sync.Mutex
	var seen []string // each request's X-Team header
	tap := rtFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		seen = append(seen, r.Header.Get("X-Team"))
		mu.Unlock()
		return srv.Transport().RoundTrip(r)
	})
	svc, err := ingest.NewService(option.WithoutEnvironment(), option.WithBaseURL(srv.URL()),
		option.WithAPIKey(ws.APIKey), option.WithTransport(tap))
	if err != nil {
		t.Fatal(err)
	}
	opts := []option.RequestOption{option.WithHeader("X-Team", "blue")}
	rep, err := ingest.NewReporter(svc, ingest.ReporterOptions{Project: ws.ProjectID, NoSpool: true, ChunkSize: 1,
		Run: ingest.RunParams{SuiteName: "s", ExternalRunID: "alias"}, RequestOptions: opts})
	if err != nil {
		t.Fatal(err)
	}
	opts[0] = option.WithHeader("X-Team", "red") // the caller reuses its slice
	if err := rep.Record(t.Context(), ingest.Result{CaseTitle: "a", Passed: true}); err != nil {
		t.Fatal(err)
	}
	if _, err := rep.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) == 0 {
		t.Fatal("no requests")
	}
	for _, s := range seen {
		if s != "blue" {
			t.Errorf("a request was sent with X-Team %q, want \"blue\" (the options NewReporter was given)", s)
		}
	}
}

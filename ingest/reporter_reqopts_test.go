package ingest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// ReporterOptions.RequestOptions reach every request the reporter sends,
// and Resume's opts every request it sends; options that name one call are
// refused.
func TestReporterRequestOptions(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	var mu sync.Mutex
	var seen []string // each request's path and X-Team header
	tap := rtFunc(func(r *http.Request) (*http.Response, error) {
		mu.Lock()
		seen = append(seen, r.URL.Path+" "+r.Header.Get("X-Team"))
		mu.Unlock()
		return srv.Transport().RoundTrip(r)
	})
	svc, err := ingest.NewService(option.WithoutEnvironment(), option.WithBaseURL(srv.URL()),
		option.WithAPIKey(ws.APIKey), option.WithTransport(tap))
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ingest.NewReporter(svc, ingest.ReporterOptions{Project: ws.ProjectID, NoSpool: true, ChunkSize: 1,
		Run:            ingest.RunParams{SuiteName: "s", ExternalRunID: "opts"},
		RequestOptions: []option.RequestOption{option.WithHeader("X-Team", "blue")}})
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"a", "b"} {
		if err := rep.Record(t.Context(), ingest.Result{CaseTitle: title, Passed: true}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := rep.Close(t.Context()); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) < 2 {
		t.Fatalf("requests: %v", seen)
	}
	for _, s := range seen {
		if len(s) < 5 || s[len(s)-5:] != " blue" {
			t.Errorf("request without the header: %q", s)
		}
	}
	for _, o := range []option.RequestOption{option.WithIdempotencyKey("k"), option.WithAPIKey("sk_x")} {
		if _, err := ingest.NewReporter(svc, ingest.ReporterOptions{Run: ingest.RunParams{SuiteName: "s"},
			RequestOptions: []option.RequestOption{o}}); err == nil {
			t.Error("a one-call or client option was accepted")
		}
		if _, err := ingest.Resume(t.Context(), svc, t.TempDir(), o); err == nil {
			t.Error("Resume took a one-call or client option")
		}
	}
}

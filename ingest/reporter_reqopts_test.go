package ingest_test

import (
	"net/http"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

type headerTap struct {
	rt   http.RoundTripper
	mu   sync.Mutex
	seen []string
}

func (h *headerTap) RoundTrip(r *http.Request) (*http.Response, error) {
	h.mu.Lock()
	h.seen = append(h.seen, r.URL.Path+" "+r.Header.Get("X-Team"))
	h.mu.Unlock()
	return h.rt.RoundTrip(r)
}

// ReporterOptions.RequestOptions reach every request the reporter sends,
// and Resume's opts every request it sends; options that name one call are
// refused.
func TestReporterRequestOptions(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	tap := &headerTap{rt: srv.Transport()}
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
	tap.mu.Lock()
	defer tap.mu.Unlock()
	if len(tap.seen) < 2 {
		t.Fatalf("requests: %v", tap.seen)
	}
	for _, s := range tap.seen {
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

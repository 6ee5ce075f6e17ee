package projectopstest_test

import (
	"errors"
	"io"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/option"
)

// Suite creation is deduplicated by its idempotency key, as the service's
// authorEvalSuite is: a retry after a lost answer (the SDK sends a key of
// its own, and retries) gets the same suite, not a second one.
func TestSuiteCreateDeduplicatedByKey(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	var lost atomic.Bool
	rt := rtFunc(func(req *http.Request) (*http.Response, error) {
		resp, err := f.srv.Transport().RoundTrip(req)
		if err == nil && req.Method == http.MethodPost && strings.HasSuffix(req.URL.Path, "/eval-suites") && lost.CompareAndSwap(false, true) {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			return nil, errors.New("read: connection reset by peer") // created, the answer lost
		}
		return resp, err
	})
	c, err := f.srv.NewClient(option.WithTransport(rt))
	if err != nil {
		t.Fatal(err)
	}
	created, err := c.Evals.Suites.Create(t.Context(), f.ws.ProjectID, evals.CreateSuiteParams{
		Name: "once", ServerIDs: []string{f.serverID}, Model: "openai/gpt-4o-mini", Tests: []evals.Test{echoTest("echo", "hi")}})
	if err != nil || !lost.Load() {
		t.Fatalf("Create = %+v, %v (answer lost: %v)", created, err, lost.Load())
	}
	suites, err := items(c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil))
	if err != nil || len(suites) != 1 || suites[0].ID != created.SuiteID {
		t.Errorf("suites = %+v, %v; want the one created", suites, err)
	}
}

// A replay of a suite creation's key runs the request again on the suite
// it authored, as the service does: a case the first request lacked is
// created, and the answer echoes this request's name.
func TestSuiteReplayWithAnotherBody(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	key := option.WithIdempotencyKey("suite-key")
	first, err := f.c.Evals.Suites.Create(t.Context(), f.ws.ProjectID, evals.CreateSuiteParams{
		Name: "first", ServerIDs: []string{f.serverID}, Model: "openai/gpt-4o-mini",
		Tests: []evals.Test{echoTest("echo", "hi")}}, key)
	if err != nil {
		t.Fatal(err)
	}
	again, err := f.c.Evals.Suites.Create(t.Context(), f.ws.ProjectID, evals.CreateSuiteParams{
		Name: "second", ServerIDs: []string{f.serverID}, Model: "openai/gpt-4o-mini",
		Tests: []evals.Test{echoTest("echo", "hi"), echoTest("echo two", "there")}}, key)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, cr := range again.CaseUpsert.Committed {
		names = append(names, cr.Name)
	}
	if again.SuiteID != first.SuiteID || again.Name != "second" || !slices.Contains(names, "echo two") {
		t.Errorf("replay = %s %q, committed %v; want suite %s, this request's name and its new case", again.SuiteID, again.Name, names, first.SuiteID)
	}
	if suites, err := items(f.c.Evals.Suites.List(t.Context(), f.ws.ProjectID, nil)); err != nil || len(suites) != 1 || suites[0].Name != "second" {
		t.Errorf("suites = %+v, %v; want one, named as the replay says", suites, err)
	}
}

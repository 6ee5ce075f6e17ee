package projectopstest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// Wait may run while clients start background work (a computer reset's
// re-provisioning): it raced the WaitGroup's Add ("reused before previous
// Wait has returned").
func TestWaitConcurrentWithWork(t *testing.T) {
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	stop, waiterDone := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(waiterDone)
		for {
			select {
			case <-stop:
				return
			default:
				srv.Wait()
			}
		}
	}()
	var clients sync.WaitGroup
	for range 4 {
		clients.Go(func() {
			for range 100 {
				if r := inproc(srv).call(t, "POST", "/projects/"+ws.ProjectID+"/computer/reset", ws.APIKey, nil); r.status/100 != 2 {
					t.Errorf("reset: %d %s", r.status, r.body)
					return
				}
			}
		})
	}
	clients.Wait()
	close(stop)
	<-waiterDone
}

// Close waits for a live host-catalog refresh a request started: it used
// to return while the refresh still ran (singleflight's own goroutine).
func TestCloseWaitsForCatalogRefresh(t *testing.T) {
	var running atomic.Bool
	started := make(chan struct{}, 1)
	src := func(ctx context.Context) ([]byte, error) {
		running.Store(true)
		defer running.Store(false)
		started <- struct{}{}
		<-ctx.Done()
		time.Sleep(100 * time.Millisecond) // tearing down, as an HTTP client would
		return nil, ctx.Err()
	}
	srv, err := projectopstest.NewServer(projectopstest.WithHostCatalogSource(src))
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		if resp, err := srv.Client().Get(projectopstest.InProcessURL + "/host-catalog"); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	<-done
	if running.Load() {
		t.Error("Close returned while the host-catalog refresh it started was still running")
	}
}

// WithHostedModels with no ids is an empty hosted catalog: a model without
// a key does not run on credits (it kept the default catalog).
func TestWithHostedModelsEmpty(t *testing.T) {
	f := newEvalFix(t, projectopstest.WithHostedModels())
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("a", "x")}}) // anthropic/claude-haiku-4.5
	if run := f.awaitRun(t, rc.RunID); run.Status == evals.StatusCompleted && run.Result == evals.ResultPassed {
		t.Error("a run without a key passed on credits with an empty hosted catalog")
	}
}

// ParseSeed refuses malformed JSON after the seed object, a stray } or ]
// included (More missed those).
func TestParseSeedTrailingData(t *testing.T) {
	for _, in := range []string{`{"organizations":[]}}`, `{}]`, `{} x`, `{}{}`} {
		if _, err := projectopstest.ParseSeed([]byte(in)); err == nil {
			t.Errorf("ParseSeed(%q) accepted it (valid JSON: %v)", in, json.Valid([]byte(in)))
		}
	}
	if _, err := projectopstest.ParseSeed([]byte("{}\n")); err != nil {
		t.Errorf("a seed with a final newline: %v", err)
	}
}

// Wait is for background work requests start (runs, builds), not a live
// catalog refresh: it returns while a slow source is still being read.
func TestWaitDoesNotWaitForCatalogRefresh(t *testing.T) {
	release, started := make(chan struct{}), make(chan struct{}, 1)
	src := func(ctx context.Context) ([]byte, error) {
		started <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
		}
		return nil, errors.New("unavailable")
	}
	srv := projectopstest.NewTestServer(t, projectopstest.WithHostCatalogSource(src))
	defer close(release) // before srv.Close (cleanups run later)
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, projectopstest.InProcessURL+"/host-catalog", nil)
	go func() {
		if resp, err := srv.Client().Do(req); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	done := make(chan struct{})
	go func() { srv.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Wait blocked on a live catalog refresh")
	}
}

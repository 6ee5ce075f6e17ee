package projectopstest_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

func TestEvalRunIdempotencyKey(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(50))
	tg := inproc(f.srv)
	body := evals.RunParams{SuiteName: "s", ServerIDs: []string{f.serverID},
		Tests: []evals.Test{{Title: "t", Model: "openai/gpt-4o-mini", Steps: []evals.Step{evals.PromptStep("p", "hi")}}}}
	sendWith := func(header, key, bodyKey string) evals.RunCreated {
		p := body
		p.IdempotencyKey = bodyKey
		req := must[*http.Request](t)(http.NewRequestWithContext(t.Context(), http.MethodPost,
			projectopstest.InProcessURL+"/projects/"+f.ws.ProjectID+"/eval-runs", jsonBody(t, p)))
		req.Header.Set("Authorization", "Bearer "+f.ws.APIKey)
		if header != "" {
			req.Header.Set(header, key)
		}
		resp := must[*http.Response](t)(tg.client.Do(req))
		defer resp.Body.Close()
		var rc evals.RunCreated
		result{status: resp.StatusCode, body: must[[]byte](t)(readAll(resp))}.decode(t, &rc)
		if resp.StatusCode != http.StatusAccepted {
			t.Fatalf("status %d", resp.StatusCode)
		}
		return rc
	}
	// POST /eval-runs reads the prefixed header alone (the service's
	// readIdempotencyKey); a bare Idempotency-Key names nothing there.
	const prefixed = "X-Mcpjam-Idempotency-Key"
	send := func(key string) evals.RunCreated { return sendWith(prefixed, key, "") }
	a, b, c := send("k1"), send("k1"), send("k2")
	if a.RunID != b.RunID || a.Deduped || !b.Deduped || c.RunID == a.RunID {
		t.Fatalf("a=%+v b=%+v c=%+v", a, b, c)
	}
	if bare := sendWith("Idempotency-Key", "k1", ""); bare.Deduped || bare.RunID == a.RunID {
		t.Errorf("a bare Idempotency-Key deduped: %+v", bare)
	}
	// A key names a run of one suite (same actor and suite): on another
	// suite it starts that suite's run.
	other := body
	other.SuiteName = "other"
	if o := must[*evals.RunCreated](t)(f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, other,
		option.WithIdempotencyKey("k1"))); o.Deduped || o.RunID == a.RunID || o.SuiteID == a.SuiteID {
		t.Errorf("the key of suite s on suite other: %+v, want a new run of a new suite", o)
	}
	if r := must[*evals.RunCreated](t)(f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID,
		evals.RunParams{SuiteID: a.SuiteID}, option.WithIdempotencyKey("k1"))); !r.Deduped || r.RunID != a.RunID {
		t.Errorf("the suite's creation by name and a rerun by its id are the same suite: %+v", r)
	}
	// The body's idempotencyKey is read when no header is; a blank or
	// over-long header is ignored, an over-long body key refused.
	e1, e2 := sendWith("", "", "k3"), sendWith("", "", "k3")
	if e1.Deduped || e2.RunID != e1.RunID || !e2.Deduped {
		t.Errorf("body key: %+v %+v", e1, e2)
	}
	if g := sendWith(prefixed, strings.Repeat("x", 257), "k3"); g.RunID != e1.RunID || !g.Deduped {
		t.Errorf("an over-long header must give way to the body key: %+v", g)
	}
	tg.call(t, http.MethodPost, "/projects/"+f.ws.ProjectID+"/eval-runs", f.ws.APIKey,
		map[string]any{"suiteName": "s", "serverIds": body.ServerIDs, "tests": body.Tests, "idempotencyKey": strings.Repeat("x", 257)}).
		wantField(t, "idempotencyKey")
	// The SDK sends RunParams.IdempotencyKey as the header too.
	withKey := body
	withKey.IdempotencyKey = "k3"
	if h, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, withKey); err != nil || h.RunID != e1.RunID || !h.Deduped {
		t.Errorf("SDK with a body key: %+v, %v", h, err)
	}
	withKey.IdempotencyKey = strings.Repeat("x", 257)
	if _, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, withKey); !errors.Is(err, projectops.ErrValidation) {
		t.Errorf("SDK with an over-long key: %v", err)
	}
	// The body's limit counts UTF-16 code units (the service's schema), a
	// header's bytes (Node reads it as Latin-1): 256 two-byte characters
	// are a body key and an ignored header. The SDK sends such a key in
	// the body alone (no header, generated or not, to override it); it
	// refuses an option's key over 256 bytes, and a body key over 256
	// UTF-16 units.
	u := sendWith("", "", strings.Repeat("é", 256))
	if u.RunID == "" || u.Deduped {
		t.Errorf("a 256-character body key: %+v", u)
	}
	if h := sendWith(prefixed, strings.Repeat("é", 256), ""); h.RunID == u.RunID || h.Deduped {
		t.Errorf("the same key as a 512-byte header must be ignored (another run): %+v", h)
	}
	if h := sendWith(prefixed, strings.Repeat("é", 128), ""); h.Deduped {
		t.Errorf("a 256-byte header key is new: %+v", h)
	} else if h2 := sendWith(prefixed, strings.Repeat("é", 128), ""); h2.RunID != h.RunID || !h2.Deduped {
		t.Errorf("a 256-byte header key is honoured: %+v then %+v", h, h2)
	}
	// A key no header can carry (blank, a control character) travels in
	// the body alone too, and names its run all the same.
	for _, key := range []string{"   ", "line\nbreak"} {
		withKey.IdempotencyKey = key
		if h, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, withKey); err != nil || h.Deduped {
			t.Errorf("SDK with body key %q: %+v, %v", key, h, err)
		} else if h2, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, withKey); err != nil || h2.RunID != h.RunID || !h2.Deduped {
			t.Errorf("SDK with body key %q again: %+v, %v; want the run it started", key, h2, err)
		}
	}
	withKey.IdempotencyKey = strings.Repeat("é", 200)
	if h, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, withKey); err != nil || h.Deduped {
		t.Errorf("SDK with a 400-byte key: %+v, %v", h, err)
	} else if h2, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, withKey); err != nil || h2.RunID != h.RunID || !h2.Deduped {
		t.Errorf("SDK with the same 400-byte key again: %+v, %v; want the run it started", h2, err)
	}
	for _, long := range []string{strings.Repeat("é", 257), strings.Repeat("\U0001F600", 129)} {
		withKey.IdempotencyKey = long
		if _, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, withKey); !errors.Is(err, projectops.ErrValidation) {
			t.Errorf("SDK with an over-long key of %d runes: %v", utf8.RuneCountInString(long), err)
		}
	}
	tg.call(t, http.MethodPost, "/projects/"+f.ws.ProjectID+"/eval-runs", f.ws.APIKey,
		map[string]any{"suiteName": "s", "serverIds": body.ServerIDs, "tests": body.Tests, "idempotencyKey": strings.Repeat("\U0001F600", 129)}).
		wantField(t, "idempotencyKey")
	if _, err := f.c.Evals.Runs.Create(t.Context(), f.ws.ProjectID, body, option.WithIdempotencyKey(strings.Repeat("x", 257))); !errors.Is(err, projectops.ErrValidation) {
		t.Errorf("SDK with a 257-byte option key: %v", err)
	}

	// The SDK sends one key per call and reuses it on retries: a create
	// failing with 503 the first time is retried with the same key and
	// starts one run.
	rec := &sdktest.Recorder{RT: f.srv.Transport()}
	cl := must[*projectops.Client](t)(f.srv.NewClient(option.WithTransport(rec), option.WithRetryBackoff(time.Millisecond, time.Millisecond)))
	f.srv.SetFault("POST /projects/{projectId}/eval-runs", projectopstest.Fault{Status: http.StatusServiceUnavailable, Times: 1})
	rc, err := cl.Evals.Runs.Create(t.Context(), f.ws.ProjectID, body)
	if err != nil {
		t.Fatal(err)
	}
	ex := rec.Exchanges()
	if len(ex) != 2 || ex[0].Header.Get(prefixed) == "" || ex[0].Header.Get(prefixed) != ex[1].Header.Get(prefixed) ||
		ex[0].Header.Get("Idempotency-Key") != ex[0].Header.Get(prefixed) {
		t.Fatalf("exchanges: %d, keys %q %q", len(ex), ex[0].Header.Get("Idempotency-Key"), ex[len(ex)-1].Header.Get("Idempotency-Key"))
	}
	rc2, err := cl.Evals.Runs.Create(t.Context(), f.ws.ProjectID, body)
	if err != nil || rc2.RunID == rc.RunID {
		t.Fatalf("a new call must get a new key and run: %+v, %v", rc2, err)
	}
}

func TestEvalTraceNotAvailable(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalTraceDropRate(0.5))
	ctx := t.Context()
	rc := f.create(t, evals.RunParams{IterationOverride: 4, Tests: []evals.Test{echoTest("t", "x")}})
	f.awaitRun(t, rc.RunID)
	iters, err := sdktest.Collect(f.c.Evals.Runs.AllIterations(ctx, f.ws.ProjectID, rc.RunID, nil))
	if err != nil {
		t.Fatal(err)
	}
	missing := 0
	for _, it := range iters {
		_, err := f.c.Evals.Runs.Trace(ctx, f.ws.ProjectID, rc.RunID, it.ID)
		steps, serr := sdktest.Collect(f.c.Evals.Runs.AllSteps(ctx, f.ws.ProjectID, rc.RunID, it.ID, nil))
		if serr != nil || len(steps) != 2 || steps[1].Status != evals.StepOK {
			t.Fatalf("steps = %+v, %v", steps, serr)
		}
		switch {
		case err == nil:
			if steps[0].Evidence == nil {
				t.Errorf("iteration %d kept its trace but its steps lost their evidence", it.IterationNumber)
			}
		case errors.Is(err, projectops.ErrTraceNotAvailable):
			sdktest.WantError(t, err, projectops.CodeNotFound, true)
			if steps[0].Evidence != nil {
				t.Errorf("evidence without a trace: %+v", steps[0])
			}
			missing++
		default:
			t.Fatal(err)
		}
	}
	if missing != 2 {
		t.Errorf("%d of 4 traces missing, want 2", missing)
	}
	// The marker drops a test's traces whatever the rate.
	rc = f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("quiet "+projectopstest.NoTraceMarker, "x")}})
	f.awaitRun(t, rc.RunID)
	it := must[*shared.Page[evals.Iteration]](t)(f.c.Evals.Runs.ListIterations(ctx, f.ws.ProjectID, rc.RunID, nil)).Items[0]
	if _, err := f.c.Evals.Runs.Trace(ctx, f.ws.ProjectID, rc.RunID, it.ID); !errors.Is(err, projectops.ErrTraceNotAvailable) {
		t.Errorf("marker: %v", err)
	}
}

func TestEvalWaitProgressAndRaces(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	f := newEvalFix(t, holdRuns(release), projectopstest.WithEvalParallelism(1))
	rc := f.create(t, evals.RunParams{IterationOverride: 3, Tests: []evals.Test{echoTest("t", "x")}})
	fast := evals.WithPollInterval(time.Millisecond, 2*time.Millisecond)

	// A Wait whose context ends returns at once with the context's error.
	ctx, cancel := context.WithCancel(t.Context())
	var seen []evals.Run
	done := make(chan error, 1)
	go func() {
		_, err := f.c.Evals.Runs.Wait(ctx, f.ws.ProjectID, rc.RunID, fast,
			evals.WithProgress(func(r *evals.Run) { seen = append(seen, *r) }))
		done <- err
	}()
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Wait after cancel = %v", err)
	}

	// Many waiters race the run's completion; all see it terminal.
	var wg sync.WaitGroup
	results := make([]*evals.Run, 8)
	var progress [][]evals.Run
	var mu sync.Mutex
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine []evals.Run
			r, err := f.c.Evals.Runs.Wait(context.Background(), f.ws.ProjectID, rc.RunID, fast,
				evals.WithProgress(func(r *evals.Run) { mine = append(mine, *r) }))
			if err != nil {
				t.Error(err)
			}
			results[i] = r
			mu.Lock()
			progress = append(progress, mine)
			mu.Unlock()
		}()
	}
	close(release)
	wg.Wait()
	for _, r := range results {
		if r == nil || r.Status != evals.StatusCompleted || r.Summary.Passed != 3 {
			t.Fatalf("waiter got %+v", r)
		}
	}
	for _, p := range progress {
		last := p[len(p)-1]
		if len(p) == 0 || last.Status != evals.StatusCompleted {
			t.Fatalf("progress %+v", p)
		}
		for i := 1; i < len(p); i++ {
			if p[i].Summary.Passed < p[i-1].Summary.Passed {
				t.Fatalf("progress went backwards: %+v", p)
			}
		}
	}
}

func TestEvalWaitRespectsRateLimit(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	rc := f.create(t, evals.RunParams{Tests: []evals.Test{echoTest("t", "x")}})
	f.awaitRun(t, rc.RunID)
	// Without transport retries, the 429 reaches Wait, which waits out its
	// Retry-After (1s) before polling again.
	c := must[*projectops.Client](t)(f.srv.NewClient(option.WithMaxRetries(0)))
	f.srv.SetFault("GET /projects/{projectId}/eval-runs/{runId}", projectopstest.Fault{Status: http.StatusTooManyRequests,
		Code: projectops.CodeRateLimited, RetryAfter: time.Second, Times: 1})
	f.srv.ResetRequests()
	start := time.Now()
	run, err := c.Evals.Runs.Wait(t.Context(), f.ws.ProjectID, rc.RunID, evals.WithPollInterval(time.Millisecond, time.Millisecond))
	if err != nil || run.Status != evals.StatusCompleted {
		t.Fatalf("Wait = %+v, %v", run, err)
	}
	if d := time.Since(start); d < 900*time.Millisecond {
		t.Errorf("Wait polled again after %s, before Retry-After", d)
	}
	if n := len(f.srv.Requests()); n != 2 {
		t.Errorf("%d polls, want 2", n)
	}
	// Other errors end the wait.
	_, err = c.Evals.Runs.Wait(t.Context(), f.ws.ProjectID, "run_nope")
	sdktest.WantError(t, err, projectops.CodeNotFound, true)
}

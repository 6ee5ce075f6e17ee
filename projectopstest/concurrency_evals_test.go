package projectopstest_test

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"testing"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest"
)

// idemKey is the header map of an eval create sent under idempotency key k.
func idemKey(k string) map[string]string {
	return map[string]string{"X-Mcpjam-Idempotency-Key": k}
}

// inFlightRuns counts the project's runs not yet terminal, through the
// suites' run listings.
func inFlightRuns(t *testing.T, f *evalFix) int {
	t.Helper()
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	var suites listPage
	tg.call(t, "GET", p+"/eval-suites?limit=100", f.ws.APIKey, nil).decode(t, &suites)
	n := 0
	for _, su := range suites.Items {
		var runs listPage
		tg.call(t, "GET", fmt.Sprintf("%s/eval-suites/%s/runs?limit=100", p, su["id"]), f.ws.APIKey, nil).decode(t, &runs)
		for _, r := range runs.Items {
			if st, _ := r["status"].(string); !evals.Status(st).Terminal() {
				n++
			}
		}
	}
	return n
}

// The organization's cap on eval runs in flight (api-spec.md §4.4 and §8:
// 2 by default, the excess 429 with reason CONCURRENT_RUN_LIMIT) admits
// exactly the cap when creates race; a cancel racing more creates frees
// one slot, which at most one of them takes.
func TestConcurrentRunCapAdmitsExactlyTheCap(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	f := newEvalFix(t, holdRuns(release))
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	capN := projectopstest.DefaultEvalConcurrency
	rs := fanOut(24, func(i int) reply {
		return tg.send("POST", p+"/eval-runs", f.ws.APIKey, oneTestRun(f.serverID, fmt.Sprint("s", i)), nil)
	})
	admitted := admittedRuns(t, "", rs)
	if len(admitted) != capN {
		t.Fatalf("%d admitted, want exactly %d", len(admitted), capN)
	}
	const cancelAt = 0
	rs = fanOut(17, func(i int) reply {
		if i == cancelAt {
			return tg.send("POST", p+"/eval-runs/"+admitted[0]+"/cancel", f.ws.APIKey, nil, nil)
		}
		return tg.send("POST", p+"/eval-runs", f.ws.APIKey, oneTestRun(f.serverID, fmt.Sprint("t", i)), nil)
	})
	if c := rs[cancelAt]; c.status != 200 {
		t.Fatalf("cancel: %v", c)
	}
	n := len(admittedRuns(t, "after cancel: ", rs[cancelAt+1:]))
	if n > 1 {
		t.Errorf("%d creates admitted after one cancel, want at most 1", n)
	}
	if got, want := inFlightRuns(t, f), capN-1+n; got != want {
		t.Errorf("%d runs in flight, want %d (cap %d, %d admitted after the cancel)", got, want, capN, n)
	}
}

// The cap holds over loopback too (Server.Start), with many connections
// at once: exactly the cap admitted, as in process. Each round cancels
// what it admitted so that the next races for the whole cap again;
// rounds repeat the race so that a check and a store not made in one
// step is caught in almost every run of the test.
func TestConcurrentRunCapOverLoopback(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	f := newEvalFix(t, holdRuns(release))
	tg := targets(t, f.srv)[1]
	tg.client.Transport.(*http.Transport).MaxIdleConnsPerHost = 100
	p := "/projects/" + f.ws.ProjectID
	for round := range 4 {
		rs := fanOut(60, func(int) reply {
			return tg.send("POST", p+"/eval-runs", f.ws.APIKey, oneTestRun(f.serverID, fmt.Sprint("loop", round)), nil)
		})
		admitted := admittedRuns(t, fmt.Sprintf("round %d: ", round), rs)
		if len(admitted) != projectopstest.DefaultEvalConcurrency {
			t.Fatalf("round %d: %d admitted over loopback, want %d", round, len(admitted), projectopstest.DefaultEvalConcurrency)
		}
		for _, id := range admitted {
			if r := tg.call(t, "POST", p+"/eval-runs/"+id+"/cancel", f.ws.APIKey, nil); r.status != 200 {
				t.Fatalf("round %d: cancel: %d %s", round, r.status, r.body)
			}
		}
	}
}

// Identical run creates racing under one idempotency key name one run
// (reference-notes: a repeat with the same key replays the run, answered
// deduped): one fresh answer, one suite. Rounds, each with its own key
// and suite, repeat the race.
func TestConcurrentIdempotentRunCreateMakesOneRun(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	const rounds = 4
	f := newEvalFix(t, holdRuns(release), projectopstest.WithEvalConcurrency(50))
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	for round := range rounds {
		rs := fanOut(20, func(int) reply {
			return tg.send("POST", p+"/eval-runs", f.ws.APIKey, oneTestRun(f.serverID, fmt.Sprint("same", round)),
				idemKey(fmt.Sprint("k-", round)))
		})
		ids := map[string]int{}
		fresh := 0
		for i, r := range rs {
			if r.status != 202 {
				t.Errorf("round %d: create %d: %v", round, i, r)
				continue
			}
			ids[r.field("runId")]++
			if r.object()["deduped"] != true {
				fresh++
			}
		}
		if fresh != 1 || len(ids) != 1 {
			t.Fatalf("round %d: %d creates answered fresh (not deduped), run ids %v; want one run, answered fresh once", round, fresh, ids)
		}
	}
	var suites listPage
	tg.call(t, "GET", p+"/eval-suites", f.ws.APIKey, nil).decode(t, &suites)
	if len(suites.Items) != rounds {
		t.Errorf("%d suites, want %d", len(suites.Items), rounds)
	}
}

// One idempotency key with different bodies at once: the service scopes a
// key to the actor and the suite (routes/shared/evals.ts passes it to
// authorEvalSuite and startSuiteRunWithRecorder), so one suite name with
// different tests is one run and replays, and each other suite name is a
// run of its own. Rounds, each with its own key, repeat the race.
func TestConcurrentIdempotencyKeyScopedToSuite(t *testing.T) {
	t.Parallel()
	release := make(chan struct{})
	defer close(release)
	f := newEvalFix(t, holdRuns(release), projectopstest.WithEvalConcurrency(50))
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	body := func(suite, title string) map[string]any {
		b := oneTestRun(f.serverID, suite)
		b["tests"].([]any)[0].(map[string]any)["title"] = title
		return b
	}
	for round := range 4 {
		key := idemKey(fmt.Sprint("k-", round))
		rs := fanOut(12, func(i int) reply {
			return tg.send("POST", p+"/eval-runs", f.ws.APIKey, body(fmt.Sprint("same", round), fmt.Sprint("t", i)), key)
		})
		ids, fresh := map[string]bool{}, 0
		for i, r := range rs {
			if r.status != 202 {
				t.Fatalf("round %d: create %d: %v", round, i, r)
			}
			ids[r.field("runId")] = true
			if r.object()["deduped"] != true {
				fresh++
			}
		}
		if len(ids) != 1 || fresh != 1 {
			t.Errorf("round %d: one suite: %d runs, %d fresh answers, want 1 and 1", round, len(ids), fresh)
		}
	}
	rs := fanOut(8, func(i int) reply {
		return tg.send("POST", p+"/eval-runs", f.ws.APIKey, body(fmt.Sprint("other", i), "t"), idemKey("k-0"))
	})
	ids := map[string]bool{}
	for i, r := range rs {
		if r.status != 202 {
			t.Fatalf("create %d: %v", i, r)
		}
		ids[r.field("runId")] = true
	}
	if len(ids) != 8 {
		t.Errorf("8 suites under one key: %d runs, want 8", len(ids))
	}
}

// Eval-suite creates racing under one idempotency key author one suite
// (the service's authorEvalSuite takes the key so that a retry does not
// author a second; api-spec.md §4.4 create is 201 with suiteId).
func TestConcurrentIdempotentSuiteCreateMakesOneSuite(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t)
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	body := map[string]any{"name": "s", "serverIds": []string{f.serverID}, "model": "openai/gpt-4o-mini",
		"tests": []any{map[string]any{"title": "t", "steps": []any{map[string]any{"id": "p", "kind": "prompt", "prompt": "hi"}}}}}
	rs := fanOut(16, func(int) reply {
		return tg.send("POST", p+"/eval-suites", f.ws.APIKey, body, idemKey("suite-k"))
	})
	ids := map[string]bool{}
	for i, r := range rs {
		if r.status/100 != 2 {
			t.Fatalf("create %d: %v", i, r)
		}
		ids[r.field("suiteId")] = true
	}
	var suites listPage
	tg.call(t, "GET", p+"/eval-suites", f.ws.APIKey, nil).decode(t, &suites)
	if len(ids) != 1 || len(suites.Items) != 1 {
		t.Errorf("%d suite ids answered, %d suites stored, want 1 and 1", len(ids), len(suites.Items))
	}
}

// Racing reruns of one suite each get their own run number, and the
// suite's runs listing is newest first without repeats (api-spec.md §4.4).
func TestConcurrentRerunsNumberedNewestFirst(t *testing.T) {
	t.Parallel()
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(50))
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	var created struct {
		SuiteID string `json:"suiteId"`
	}
	tg.call(t, "POST", p+"/eval-suites", f.ws.APIKey, map[string]any{"name": "s", "serverIds": []string{f.serverID},
		"model": "openai/gpt-4o-mini", "tests": []any{map[string]any{"title": "t",
			"steps": []any{map[string]any{"id": "p", "kind": "prompt", "prompt": "Use the echo tool with message=x"}}}}}).decode(t, &created)
	const n = 20
	rs := fanOut(n, func(int) reply {
		return tg.send("POST", p+"/eval-runs", f.ws.APIKey, map[string]any{"suiteId": created.SuiteID}, nil)
	})
	for i, r := range rs {
		if r.status != 202 {
			t.Fatalf("rerun %d: %v", i, r)
		}
	}
	f.srv.Wait()
	var runs listPage
	tg.call(t, "GET", p+"/eval-suites/"+created.SuiteID+"/runs?limit=100", f.ws.APIKey, nil).decode(t, &runs)
	if len(runs.Items) != n {
		t.Fatalf("%d runs listed, want %d", len(runs.Items), n)
	}
	for i := 1; i < len(runs.Items); i++ {
		prev, it := runs.Items[i-1], runs.Items[i]
		a, _ := prev["createdAt"].(float64)
		b, _ := it["createdAt"].(float64)
		if a < b {
			t.Errorf("runs not newest first at %d: %v then %v", i, a, b)
		}
		an, _ := prev["runNumber"].(float64)
		bn, _ := it["runNumber"].(float64)
		if an <= bn {
			t.Errorf("run numbers not strictly descending at %d: %v then %v", i, prev["runNumber"], it["runNumber"])
		}
	}
}

// Cancels racing one another on one in-flight run all answer 200
// cancelled (api-spec.md §3: cancelling a cancelled run is success, no
// change), and the run ends cancelled, once. Rounds repeat the race.
func TestConcurrentCancelsOfOneRun(t *testing.T) {
	t.Parallel()
	var ends runEnds
	f := newEvalFix(t, projectopstest.WithEvalHooks(projectopstest.EvalHooks{
		// Every run here is cancelled: its iteration waits for that.
		BeforeIteration: func(ctx context.Context, _, _ string) error { <-ctx.Done(); return nil },
		RunFinished:     ends.hook,
	}))
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	for round := range 4 {
		var rc struct {
			RunID string `json:"runId"`
		}
		tg.call(t, "POST", p+"/eval-runs", f.ws.APIKey, oneTestRun(f.serverID, fmt.Sprint("s", round))).decode(t, &rc)
		rs := fanOut(12, func(int) reply {
			return tg.send("POST", p+"/eval-runs/"+rc.RunID+"/cancel", f.ws.APIKey, nil, nil)
		})
		for i, r := range rs {
			if r.status != 200 || r.field("status") != "cancelled" {
				t.Errorf("round %d: cancel %d: %v", round, i, r)
			}
		}
		f.srv.Wait() // the run's goroutine has ended: its state is final
		var run map[string]any
		tg.call(t, "GET", p+"/eval-runs/"+rc.RunID, f.ws.APIKey, nil).decode(t, &run)
		if got := ends.of(rc.RunID); run["status"] != "cancelled" || len(got) != 1 || got[0] != "cancelled" {
			t.Errorf("round %d: run reads %v, reported ending %v; want cancelled, once", round, run["status"], got)
		}
	}
}

// runEnds records each RunFinished report, so that a test can tell that
// a run ended once, as it reads after.
type runEnds struct {
	mu sync.Mutex
	m  map[string][]any
}

// hook is the RunFinished hook that records into e.
func (e *runEnds) hook(id string, s evals.Status) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.m == nil {
		e.m = map[string][]any{}
	}
	e.m[id] = append(e.m[id], string(s))
}

// of is the statuses the run was reported ending with.
func (e *runEnds) of(id string) []any {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.m[id]
}

// checkCancelAgrees asserts that a cancel's answer agrees with the run's
// final state (api-spec.md §3: in flight → 200 cancelled; terminal → 409)
// and that the run ended once, with that state (a terminal run is
// unchanged by a cancel), leaving no iteration pending or running, nor
// cancelled in a completed run. The run must have ended.
func checkCancelAgrees(t *testing.T, f *evalFix, ends *runEnds, round int, runID string, cancel reply) {
	t.Helper()
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	var run map[string]any
	tg.call(t, "GET", p+"/eval-runs/"+runID, f.ws.APIKey, nil).decode(t, &run)
	final := run["status"]
	if got := ends.of(runID); len(got) != 1 || got[0] != final {
		t.Errorf("round %d: run reported ending %v, reads %v", round, got, final)
	}
	switch cancel.status {
	case 200:
		if final != "cancelled" || cancel.field("status") != "cancelled" {
			t.Errorf("round %d: cancel answered %v but the run ends %v", round, cancel, final)
		}
	case 409:
		if final == "cancelled" {
			t.Errorf("round %d: cancel answered 409 but the run ends cancelled", round)
		}
	default:
		t.Errorf("round %d: cancel %v", round, cancel)
	}
	var iters listPage
	tg.call(t, "GET", p+"/eval-runs/"+runID+"/iterations", f.ws.APIKey, nil).decode(t, &iters)
	for _, it := range iters.Items {
		s := it["status"]
		if s == "pending" || s == "running" {
			t.Errorf("round %d: run %v has an iteration %v", round, final, s)
		}
		if final == "completed" && s == "cancelled" {
			t.Errorf("round %d: completed run has a cancelled iteration", round)
		}
	}
}

// A cancel racing the run's own completion answers in agreement with the
// state a later GET shows (api-spec.md §3). Rounds shift the cancel by a
// varying number of yields so that both orders occur.
func TestConcurrentCancelVsCompletion(t *testing.T) {
	t.Parallel()
	var ends runEnds
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(50), projectopstest.WithEvalHooks(projectopstest.EvalHooks{RunFinished: ends.hook}))
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	answers := map[int]int{}
	for round := range 30 {
		var rc struct {
			RunID string `json:"runId"`
		}
		tg.call(t, "POST", p+"/eval-runs", f.ws.APIKey, oneTestRun(f.serverID, fmt.Sprint("s", round))).decode(t, &rc)
		jitter(round % 15 * 50)
		c := tg.send("POST", p+"/eval-runs/"+rc.RunID+"/cancel", f.ws.APIKey, nil, nil)
		f.srv.Wait() // the run's goroutine has ended: its state is final
		answers[c.status]++
		checkCancelAgrees(t, f, &ends, round, rc.RunID, c)
	}
	t.Logf("cancel answers: %v", answers)
}

// A cancel landing as the run's only iteration is released: the run is
// held in BeforeIteration until a goroutine opens its gate while another
// cancels, so the cancel meets the run at its completion edge; its answer
// agrees with the final state (api-spec.md §3).
func TestConcurrentCancelAtCompletionEdge(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	gates := map[string]chan struct{}{}
	gate := func(id string) chan struct{} {
		mu.Lock()
		defer mu.Unlock()
		if gates[id] == nil {
			gates[id] = make(chan struct{})
		}
		return gates[id]
	}
	started := make(chan string, 1)
	var ends runEnds
	f := newEvalFix(t, projectopstest.WithEvalConcurrency(50), projectopstest.WithEvalHooks(projectopstest.EvalHooks{
		RunFinished: ends.hook,
		BeforeIteration: func(ctx context.Context, runID, _ string) error {
			started <- runID
			select {
			case <-gate(runID):
			case <-ctx.Done():
			}
			return nil
		},
	}))
	tg, p := inproc(f.srv), "/projects/"+f.ws.ProjectID
	answers := map[int]int{}
	for round := range 40 {
		var rc struct {
			RunID string `json:"runId"`
		}
		tg.call(t, "POST", p+"/eval-runs", f.ws.APIKey, oneTestRun(f.serverID, fmt.Sprint("s", round))).decode(t, &rc)
		if id := <-started; id != rc.RunID {
			t.Fatalf("iteration of %s started, want %s", id, rc.RunID)
		}
		rs := fanOut(2, func(i int) reply {
			if i == 0 {
				jitter(round % 8 * 20)
				close(gate(rc.RunID))
				return reply{}
			}
			jitter(round % 5 * 30)
			return tg.send("POST", p+"/eval-runs/"+rc.RunID+"/cancel", f.ws.APIKey, nil, nil)
		})
		f.srv.Wait() // the run's goroutine has ended: its state is final
		answers[rs[1].status]++
		checkCancelAgrees(t, f, &ends, round, rc.RunID, rs[1])
	}
	t.Logf("cancel answers: %v", answers)
}

package projectopstest_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// startBody is a runs/start body for externalRunId ext.
func startBody(ext string) string {
	return fmt.Sprintf(`{"suiteName":"s","externalRunId":%q}`, ext)
}

// wantOneRunID asserts every reply is 200 and all name one runId, and
// returns it.
func wantOneRunID(t *testing.T, what string, rs []reply) string {
	t.Helper()
	ids := map[string]bool{}
	for i, r := range rs {
		if r.status != 200 {
			t.Fatalf("%s %d: %v", what, i, r)
		}
		ids[r.field("runId")] = true
	}
	if len(ids) != 1 {
		t.Fatalf("%s made %d runs for one externalRunId, want 1", what, len(ids))
	}
	for id := range ids {
		return id
	}
	return ""
}

// Racing runs/start of one externalRunId name one run, only one answered
// as new (api-spec.md §4.5: create, or idempotently reuse); iterations
// chunks racing with repeated externalIterationIds store each iteration
// once, and inserted and skipped add up over the answers; a finalize
// racing repeats of stored iterations leaves them as they are.
func TestConcurrentIngestStartAndIterations(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, p := inproc(srv), "/projects/"+ws.ProjectID+"/eval-ingest"
	var runID, ext string
	for round := range 4 { // repeated: one race can miss a split check and store
		ext = fmt.Sprint("ext-", round)
		rs := fanOut(20, func(int) reply {
			return tg.send("POST", p+"/runs/start", ws.APIKey, startBody(ext), nil)
		})
		runID = wantOneRunID(t, fmt.Sprint("round ", round, " runs/start"), rs)
		fresh := 0
		for _, r := range rs {
			if r.object()["reused"] != true {
				fresh++
			}
		}
		if fresh != 1 {
			t.Errorf("round %d: %d starts answered reused=false, want exactly 1", round, fresh)
		}
	}
	// 10 distinct iterations, two a chunk: each is sent 8 times.
	const distinct, sends = 10, 40
	rs := fanOut(sends, func(i int) reply {
		a, b := i%distinct, (i+3)%distinct
		body := fmt.Sprintf(`{"runId":%q,"results":[{"caseTitle":"c%d","passed":true,"externalIterationId":"it-%d"},`+
			`{"caseTitle":"c%d","passed":%v,"externalIterationId":"it-%d"}]}`, runID, a, a, b, b%2 == 0, b)
		return tg.send("POST", p+"/runs/iterations", ws.APIKey, body, nil)
	})
	inserted, skipped, maxTotal := 0, 0, 0
	for i, r := range rs {
		if r.status != 200 {
			t.Fatalf("iterations %d: %v", i, r)
		}
		m := r.object()
		in, _ := m["inserted"].(float64)
		sk, _ := m["skipped"].(float64)
		tot, _ := m["total"].(float64)
		inserted, skipped, maxTotal = inserted+int(in), skipped+int(sk), max(maxTotal, int(tot))
	}
	if inserted != distinct || skipped != 2*sends-distinct {
		t.Errorf("inserted %d skipped %d, want %d and %d", inserted, skipped, distinct, 2*sends-distinct)
	}
	if maxTotal != distinct {
		t.Errorf("largest total %d, want %d", maxTotal, distinct)
	}
	rs = fanOut(6, func(i int) reply {
		if i == 0 {
			return tg.send("POST", p+"/runs/finalize", ws.APIKey, fmt.Sprintf(`{"runId":%q,"externalRunId":%q}`, runID, ext), nil)
		}
		return tg.send("POST", p+"/runs/iterations", ws.APIKey,
			fmt.Sprintf(`{"runId":%q,"results":[{"caseTitle":"c1","passed":true,"externalIterationId":"it-1"}]}`, runID), nil)
	})
	// The finalize succeeds; a repeat of a stored iteration is skipped
	// before the finalize (200) or refused after it (409 CONFLICT).
	for i, r := range rs {
		if ok := r.status == 200 || i > 0 && r.status == 409; !ok {
			t.Errorf("finalize race, request %d: %v", i, r)
		}
	}
	var iters listPage
	tg.call(t, "GET", "/projects/"+ws.ProjectID+"/eval-runs/"+runID+"/iterations?limit=100", ws.APIKey, nil).decode(t, &iters)
	if len(iters.Items) != distinct {
		t.Errorf("%d iterations stored, want %d", len(iters.Items), distinct)
	}
}

// report racing runs/start of the same externalRunId leaves one run, the
// one every 2xx answer names (api-spec.md §4.5), round after round.
func TestConcurrentIngestReportVsStart(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, p := inproc(srv), "/projects/"+ws.ProjectID+"/eval-ingest"
	const rounds = 4 // repeated: one race can miss a split check and store
	for round := range rounds {
		ext := fmt.Sprint("same-", round)
		rs := fanOut(10, func(i int) reply {
			if i%2 == 0 {
				return tg.send("POST", p+"/report", ws.APIKey,
					fmt.Sprintf(`{"suiteName":"s","externalRunId":%q,"results":[{"caseTitle":"a","passed":true}]}`, ext), nil)
			}
			return tg.send("POST", p+"/runs/start", ws.APIKey, startBody(ext), nil)
		})
		ids := map[string]bool{}
		for i, r := range rs {
			if r.status != 200 {
				t.Fatalf("round %d, request %d: %v; want 200 (report and runs/start both reuse the run)", round, i, r)
			}
			ids[r.field("runId")] = true
		}
		if n := len(srv.IngestedRuns("")); n != round+1 || len(ids) != 1 {
			t.Fatalf("round %d: %d runs stored, %d ids answered, want %d and 1 (answers: %v)", round, n, len(ids), round+1, rs)
		}
	}
}

// A finalize racing appends of new iterations: every append answered 200
// is in the finalized run and counted in its summary, every one refused
// (409, the run is final) is not; a second finalize answers the same
// status (api-spec.md §4.5: finalize is idempotent).
func TestConcurrentIngestFinalizeVsAppend(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg, p := inproc(srv), "/projects/"+ws.ProjectID+"/eval-ingest"
	const finAt = 6
	for round := range 10 {
		ext := fmt.Sprint("fin-", round)
		var st struct {
			RunID string `json:"runId"`
		}
		tg.call(t, "POST", p+"/runs/start", ws.APIKey, startBody(ext)).decode(t, &st)
		finBody := fmt.Sprintf(`{"runId":%q,"externalRunId":%q}`, st.RunID, ext)
		rs := fanOut(12, func(i int) reply {
			if i == finAt {
				return tg.send("POST", p+"/runs/finalize", ws.APIKey, finBody, nil)
			}
			return tg.send("POST", p+"/runs/iterations", ws.APIKey,
				fmt.Sprintf(`{"runId":%q,"results":[{"caseTitle":"c%d","passed":true,"externalIterationId":"i%d"}]}`, st.RunID, i, i), nil)
		})
		fin := rs[finAt]
		if fin.status != 200 {
			t.Fatalf("round %d: finalize: %v", round, fin)
		}
		accepted := 0
		for i, r := range rs {
			switch {
			case i == finAt, r.status == 409:
			case r.status == 200:
				accepted++
			default:
				t.Errorf("round %d: append %d: %v", round, i, r)
			}
		}
		sum, _ := fin.object()["summary"].(map[string]any)
		if tot, _ := sum["total"].(float64); int(tot) != accepted {
			t.Errorf("round %d: finalize summary total %v, %d appends accepted", round, sum["total"], accepted)
		}
		var iters listPage
		tg.call(t, "GET", "/projects/"+ws.ProjectID+"/eval-runs/"+st.RunID+"/iterations?limit=100", ws.APIKey, nil).decode(t, &iters)
		if len(iters.Items) != accepted {
			t.Errorf("round %d: %d iterations stored, %d appends accepted", round, len(iters.Items), accepted)
		}
		again := tg.call(t, "POST", p+"/runs/finalize", ws.APIKey, finBody)
		var a map[string]any
		again.decode(t, &a)
		if a["status"] != fin.object()["status"] {
			t.Errorf("round %d: finalize again %v, first %v", round, a["status"], fin.object()["status"])
		}
	}
}

// runs/start through the literal project "default" (api-spec.md §4.1: the
// key organization's default project) racing starts that name the project
// id: one run for the externalRunId.
func TestConcurrentIngestStartDefaultAlias(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := inproc(srv)
	rs := fanOut(16, func(i int) reply {
		proj := ws.ProjectID
		if i%2 == 0 {
			proj = "default"
		}
		return tg.send("POST", "/projects/"+proj+"/eval-ingest/runs/start", ws.APIKey, startBody("alias"), nil)
	})
	wantOneRunID(t, "runs/start", rs)
}

// runs/start over loopback (Server.Start) with many connections at once:
// one run for each externalRunId, as in process.
func TestConcurrentIngestStartOverLoopback(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	tg := targets(t, srv)[1]
	tg.client.Transport.(*http.Transport).MaxIdleConnsPerHost = 100
	for round := range 4 { // repeated: one race can miss a split check and store
		rs := fanOut(60, func(int) reply {
			return tg.send("POST", "/projects/"+ws.ProjectID+"/eval-ingest/runs/start", ws.APIKey, startBody(fmt.Sprint("loop-", round)), nil)
		})
		wantOneRunID(t, fmt.Sprint("round ", round, " runs/start over loopback"), rs)
	}
}

package evals_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/projectops/projectops-go/option"

	"go.uber.org/goleak"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/internal/sdktest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

func TestStatusTerminal(t *testing.T) {
	t.Parallel()
	for s, want := range map[evals.Status]bool{evals.StatusPending: false, evals.StatusRunning: false,
		evals.StatusCompleted: true, evals.StatusFailed: true, evals.StatusCancelled: true,
		evals.StatusTimedOut: true, "paused": false} {
		if s.Terminal() != want {
			t.Errorf("%s.Terminal() = %t", s, !want)
		}
	}
}

func TestModelAPIKeysNeverPrint(t *testing.T) {
	t.Parallel()
	k := evals.ModelAPIKeys{"openai": "sk-proj-secret", "anthropic": "sk-ant-secret"}
	p := evals.RunParams{SuiteID: "evs_1", ModelAPIKeys: k}
	for _, s := range []string{fmt.Sprint(k), fmt.Sprintf("%v|%+v|%#v|%s|%q|%x", p, p, p, k, k, k), k.GoString()} {
		if strings.Contains(s, "secret") {
			t.Errorf("printed a key: %s", s)
		}
	}
	if got := k.String(); got != "ModelAPIKeys{anthropic:[REDACTED] openai:[REDACTED]}" {
		t.Errorf("String = %q", got)
	}
	if got := (evals.ModelAPIKeys{}).String(); got != "ModelAPIKeys{}" {
		t.Errorf("empty = %q", got)
	}
}

// countingRT answers every request with a running run and counts them.
type countingRT struct{ n atomic.Int32 }

func (c *countingRT) RoundTrip(*http.Request) (*http.Response, error) {
	c.n.Add(1)
	return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
		Body: http.NoBody}, nil
}

// countingClient is a client whose every request rt counts (and answers
// 200 with no body).
func countingClient(t *testing.T) (*projectops.Client, *countingRT) {
	t.Helper()
	rt := &countingRT{}
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"),
		option.WithTransport(rt))
	if err != nil {
		t.Fatal(err)
	}
	return c, rt
}

func TestWaitStopsAtOnceWhenContextEnds(t *testing.T) {
	t.Parallel()
	c, rt := countingClient(t)
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	// The error names the wait, as a call's names the call, and still
	// matches the context's.
	_, err := c.Evals.Runs.Wait(ctx, "prj", "run")
	if !errors.Is(err, context.Canceled) || err.Error() != "projectops: waiting for run run: context canceled" {
		t.Fatalf("err = %v", err)
	}
	if n := rt.n.Load(); n != 0 {
		t.Errorf("%d requests after the context ended", n)
	}
}

// Wait's error names the run as the transport names a path: an API key
// pasted as the run id is not shown.
func TestWaitErrorKeepsKeyOut(t *testing.T) {
	t.Parallel()
	const key = "sk_test_waitkey_0123456789"
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey(key), option.WithTransport(&countingRT{}))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = c.Evals.Runs.Wait(ctx, "prj", key)
	if !errors.Is(err, context.Canceled) || strings.Contains(err.Error(), key) || !strings.HasPrefix(err.Error(), "projectops: waiting for run ") {
		t.Errorf("err = %v; want it to name the wait without the key", err)
	}
}

// The bounded listings (iterations 1–200, suite runs 1–100) refuse a
// limit outside their bounds before sending, List and All alike.
func TestListingLimitsCheckedClientSide(t *testing.T) {
	t.Parallel()
	c, rt := countingClient(t)
	_, err := c.Evals.Runs.ListIterations(t.Context(), "prj", "run", &evals.IterationsParams{Limit: 500})
	sdktest.WantField(t, err, "limit", false)
	_, err = sdktest.Collect(c.Evals.Runs.AllIterations(t.Context(), "prj", "run", &evals.IterationsParams{Limit: -1}))
	sdktest.WantField(t, err, "limit", false)
	_, err = c.Evals.Suites.ListRuns(t.Context(), "prj", "evs", &evals.SuiteRunsParams{Limit: evals.MaxSuiteRunsLimit + 1})
	sdktest.WantField(t, err, "limit", false)
	_, err = sdktest.Collect(c.Evals.Suites.AllRuns(t.Context(), "prj", "evs", &evals.SuiteRunsParams{Limit: -1}))
	sdktest.WantField(t, err, "limit", false)
	if n := rt.n.Load(); n != 0 {
		t.Errorf("%d requests for out-of-range limits", n)
	}
}

// Step verdicts are listed like every other collection: ListSteps is one
// page from a cursor, AllSteps follows NextCursor.
func TestStepsPages(t *testing.T) {
	t.Parallel()
	pages := map[string]string{
		"":   `{"items":[{"stepId":"a","stepIndex":0}],"nextCursor":"c2"}`,
		"c2": `{"items":[{"stepId":"b","stepIndex":1}]}`,
	}
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		body, ok := pages[r.URL.Query().Get("cursor")]
		if !ok || !strings.HasSuffix(r.URL.Path, "/eval-runs/run_1/iterations/it_1/steps") {
			return &http.Response{StatusCode: 404, Body: http.NoBody, Request: r}, nil
		}
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body)), Request: r}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt),
		option.WithBaseURL("https://api.example/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.Evals.Runs.ListSteps(t.Context(), "p", "run_1", "it_1", &evals.StepsParams{Cursor: "c2"})
	if err != nil || len(page.Items) != 1 || page.Items[0].StepID != "b" {
		t.Fatalf("ListSteps from c2 = %+v, %v", page, err)
	}
	var ids []string
	for st, err := range c.Evals.Runs.AllSteps(t.Context(), "p", "run_1", "it_1", nil) {
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, st.StepID)
	}
	if strings.Join(ids, ",") != "a,b" {
		t.Errorf("AllSteps = %v", ids)
	}
}

type rtFunc func(*http.Request) (*http.Response, error)

func (f rtFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// bodyClient is a client whose every call is answered 200 with body, as
// the service would send it.
func bodyClient(t *testing.T, body string) *projectops.Client {
	t.Helper()
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Request: r, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt))
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// Wait's polls take per-call request options like every other call.
func TestWaitRequestOptions(t *testing.T) {
	t.Parallel()
	var seen atomic.Value
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		seen.Store(r.Header.Get("X-Trace"))
		return &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}, "X-Request-Id": {"req_9"}},
			Body: io.NopCloser(strings.NewReader(`{"id":"run","status":"completed"}`)), Request: r}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt),
		option.WithBaseURL("https://api.example/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	var meta option.Response
	run, err := c.Evals.Runs.Wait(t.Context(), "p", "run",
		evals.WithRequestOptions(option.WithHeader("X-Trace", "t-1"), option.WithResponseInto(&meta)))
	if err != nil || run.Status != evals.StatusCompleted {
		t.Fatalf("Wait = %+v, %v", run, err)
	}
	if seen.Load() != "t-1" || meta.RequestID != "req_9" {
		t.Errorf("header %v, response metadata %+v", seen.Load(), meta)
	}
}

// Model API keys redact themselves under encoding/json too (slog's JSON
// handler on a nested value); the request body alone carries them.
func TestModelAPIKeysOnlyOnTheWire(t *testing.T) {
	t.Parallel()
	p := evals.RunParams{SuiteName: "s", ModelAPIKeys: evals.ModelAPIKeys{"openai": "sk-proj-secret"}}
	b, _ := json.Marshal(p)
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "nested", []evals.RunParams{p}, "m", map[string]any{"k": p.ModelAPIKeys})
	if out := string(b) + logs.String(); strings.Contains(out, "sk-proj-secret") || !strings.Contains(string(b), `"openai":"[REDACTED]"`) {
		t.Errorf("JSON: %s", out)
	}
	var sent atomic.Value
	rt := rtFunc(func(r *http.Request) (*http.Response, error) {
		body, _ := io.ReadAll(r.Body)
		sent.Store(string(body))
		return &http.Response{StatusCode: 202, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(`{"runId":"r","suiteId":"s","status":"running"}`)), Request: r}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt),
		option.WithBaseURL("https://api.example/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Evals.Runs.Create(t.Context(), "p", p); err != nil {
		t.Fatal(err)
	}
	if s, _ := sent.Load().(string); !strings.Contains(s, `"modelApiKeys":{"openai":"sk-proj-secret"}`) {
		t.Errorf("request body: %s", s)
	}
}

// AssertCalledWith sends the predicate in the service's shape, as the
// reference's examples write it: args nested under args, {} for none.
func TestAssertCalledWithWireShape(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"text": "hi"}, `{"id":"s2","kind":"assert","assertion":{"type":"toolCalledWith","toolName":"echo","args":{"args":{"text":"hi"}}}}`},
		{nil, `{"id":"s2","kind":"assert","assertion":{"type":"toolCalledWith","toolName":"echo","args":{"args":{}}}}`},
	} {
		b, err := json.Marshal(evals.AssertCalledWith("s2", "echo", tc.args))
		if err != nil || string(b) != tc.want {
			t.Errorf("AssertCalledWith(%v) = %s, %v; want %s", tc.args, b, err, tc.want)
		}
	}
}

package projectops_test

import (
	"context"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// drain runs an iterator to its end and returns its first error.
func drain[T any](seq iter.Seq2[T, error]) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// An All… iterator is lazy: its pages are fetched when the iteration runs,
// with the options All was given. The iterator copies its params ("Iterators
// are lazy ..., copy your params", docs/sdk.md), and the options too: a
// caller that reuses its options slice after building the iterator (a loop
// that builds per-item options in one buffer, or a slice shared with other
// goroutines) must not change the options of an iterator it already handed
// out, nor race with its pages.
func TestIteratorKeepsCallersOptionsSlice(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	var traces []string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		traces = append(traces, r.Header.Get("X-Trace"))
		mu.Unlock()
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"items":[],"nextCursor":""}`)
	}))
	defer ts.Close()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_alias"), option.WithBaseURL(ts.URL+"/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	// Each builds an iterator with opts, and returns what runs it.
	type build func(ctx context.Context, opts []option.RequestOption) func() error
	iterators := map[string]build{
		"Hosts.All": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Hosts.All(ctx, "prj_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Servers.All": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Servers.All(ctx, "prj_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Servers.AllTools": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Servers.AllTools(ctx, "prj_1", "srv_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Servers.AllPrompts": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Servers.AllPrompts(ctx, "prj_1", "srv_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Servers.AllResources": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Servers.AllResources(ctx, "prj_1", "srv_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Environments.All": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Environments.All(ctx, "prj_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Environments.AllBuilds": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Environments.AllBuilds(ctx, "prj_1", "env_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Evals.Suites.All": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Evals.Suites.All(ctx, "prj_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Evals.Suites.AllRuns": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Evals.Suites.AllRuns(ctx, "prj_1", "suite_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Evals.Runs.AllIterations": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Evals.Runs.AllIterations(ctx, "prj_1", "run_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Evals.Runs.AllSteps": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Evals.Runs.AllSteps(ctx, "prj_1", "run_1", "it_1", nil, o...)
			return func() error { return drain(s) }
		},
		"Catalog.AllProjects": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Catalog.AllProjects(ctx, nil, o...)
			return func() error { return drain(s) }
		},
		"Catalog.AllChatSessions": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Catalog.AllChatSessions(ctx, nil, o...)
			return func() error { return drain(s) }
		},
		"Catalog.AllBuiltinTools": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Catalog.AllBuiltinTools(ctx, "claude", nil, o...)
			return func() error { return drain(s) }
		},
		"Catalog.AllChatboxes": func(ctx context.Context, o []option.RequestOption) func() error {
			s := c.Catalog.AllChatboxes(ctx, "prj_1", nil, o...)
			return func() error { return drain(s) }
		},
	}
	for name, b := range iterators {
		mu.Lock()
		traces = traces[:0]
		mu.Unlock()
		opts := []option.RequestOption{option.WithHeader("X-Trace", "first")}
		run := b(t.Context(), opts)
		opts[0] = option.WithHeader("X-Trace", "second") // the caller reuses its buffer for its next call
		if err := run(); err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		mu.Lock()
		if len(traces) != 1 || traces[0] != "first" {
			t.Errorf("%s was fetched with X-Trace %q, want \"first\" (the options it was given)", name, traces)
		}
		mu.Unlock()
	}
}

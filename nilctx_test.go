package projectops_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
	"github.com/projectops/projectops-go/tunnels"
)

// A nil context is a caller bug that net/http answers with an error; the
// SDK answers it with a typed validation error before sending, never a
// panic, on its calls, iterators and pollers alike.
func TestNilContextIsATypedError(t *testing.T) {
	t.Parallel()
	srv, c, log := callOptsClient(t)
	ws := srv.Default()
	var nilCtx context.Context // a variable: staticcheck flags a literal nil
	calls := map[string]func() error{
		"Hosts.List": func() error { _, err := c.Hosts.List(nilCtx, ws.ProjectID, nil); return err },
		"Hosts.List with options": func() error {
			_, err := c.Hosts.List(nilCtx, ws.ProjectID, nil, option.WithHeader("X-A", "b"))
			return err
		},
		"Servers.All": func() error {
			for _, err := range c.Servers.All(nilCtx, ws.ProjectID, nil) {
				return err
			}
			return nil
		},
		"Evals.Runs.Wait": func() error { _, err := c.Evals.Runs.Wait(nilCtx, ws.ProjectID, "run_1"); return err },
		"Catalog.Hosts":   func() error { _, err := c.Catalog.HostCatalog(nilCtx); return err },
		"Ingest.StartRun": func() error {
			_, err := c.Ingest.StartRun(nilCtx, ws.ProjectID, ingest.RunParams{SuiteName: "s"})
			return err
		},
		"Environments.Get": func() error { _, err := c.Environments.Get(nilCtx, ws.ProjectID, "env_1"); return err },
		"Environments.WaitForBuild": func() error {
			_, err := c.Environments.WaitForBuild(nilCtx, ws.ProjectID, "env_1", "bld_1")
			return err
		},
		"Tunnels.Serve": func() error {
			return c.Tunnels.Serve(nilCtx, &tunnels.Grant{ServerID: "srv_1", ConnectToken: "t", RelayWSURL: "ws://127.0.0.1:1/x"}, http.NotFoundHandler())
		},
		"ingest.ReadGoTest": func() error {
			_, err := ingest.ReadGoTest(nilCtx, strings.NewReader("plain text\n"), ingest.RecorderFunc(func(context.Context, ingest.Result) error { return nil }), ingest.GoTestOptions{})
			return err
		},
		"ingest.ReadJUnit": func() error {
			_, err := ingest.ReadJUnit(nilCtx, strings.NewReader(`<testsuite><testcase name="a"/></testsuite>`), ingest.RecorderFunc(func(context.Context, ingest.Result) error { return nil }))
			return err
		},
		"ingest.ReadJest": func() error {
			_, err := ingest.ReadJest(nilCtx, strings.NewReader(`{"testResults":[]}`), ingest.RecorderFunc(func(context.Context, ingest.Result) error { return nil }))
			return err
		},
		"ingest.ReadVitest": func() error {
			_, err := ingest.ReadVitest(nilCtx, strings.NewReader(`{"testResults":[]}`), ingest.RecorderFunc(func(context.Context, ingest.Result) error { return nil }))
			return err
		},
		"Reporter.Record": func() error {
			rep, err := ingest.NewReporter(c.Ingest, ingest.ReporterOptions{Run: ingest.RunParams{SuiteName: "s", ExternalRunID: "e"}, SpoolDir: t.TempDir()})
			if err != nil {
				return err
			}
			t.Cleanup(func() { _, _ = rep.Close(context.Background()) })
			return rep.Record(nilCtx, ingest.Result{CaseTitle: "c", Passed: true})
		},
	}
	for name, call := range calls {
		func() {
			defer func() {
				if v := recover(); v != nil {
					t.Errorf("%s: panic %v", name, v)
				}
			}()
			err := call()
			if got := (*projectops.Error)(nil); !errors.As(err, &got) || !errors.Is(err, projectops.ErrValidation) || got.StatusCode != 0 {
				t.Errorf("%s: err = %v, want a validation error raised before sending", name, err)
			}
		}()
	}
	if n := len(log.all()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

// Input the SDK refuses before sending is a *projectops.Error with
// ErrValidation, in every package.
func TestInputRejectionsAreTyped(t *testing.T) {
	t.Parallel()
	_, c, _ := callOptsClient(t)
	ctx := t.Context()
	errs := map[string]error{
		"Tunnels.Serve(nil grant)":   c.Tunnels.Serve(ctx, nil, http.NotFoundHandler()),
		"Tunnels.Serve(zero grant)":  c.Tunnels.Serve(ctx, &tunnels.Grant{}, http.NotFoundHandler()),
		"Tunnels.Serve(nil handler)": c.Tunnels.Serve(ctx, &tunnels.Grant{RelayWSURL: "ws://x", ConnectToken: "t"}, nil),
	}
	_, errs["tunnels.ProxyTo(nil)"] = tunnels.ProxyTo(nil)
	_, errs["ingest.NewReporter(nil)"] = ingest.NewReporter(nil, ingest.ReporterOptions{Run: ingest.RunParams{SuiteName: "x"}})
	for name, err := range errs {
		var e *projectops.Error
		if !errors.As(err, &e) || !errors.Is(err, projectops.ErrValidation) || e.StatusCode != 0 {
			t.Errorf("%s: %T %v, want a validation *projectops.Error", name, err, err)
		}
	}
}

// A zero Client or service answers with a typed error, not a panic; so do
// the zero values of error types, as errors.As leaves a target.
func TestZeroValuesDoNotPanic(t *testing.T) {
	ctx := context.Background()
	c := &projectops.Client{}
	if c.BaseURL() != "" || !strings.Contains(c.String(), "unconfigured") {
		t.Errorf("zero Client: %q %q", c.BaseURL(), c.String())
	}
	if _, err := (&hosts.Service{}).List(ctx, "p", nil); err == nil || !strings.Contains(err.Error(), "unconfigured client") {
		t.Errorf("zero hosts.Service List: %v", err)
	}
	for _, err := range (&hosts.Service{}).All(ctx, "p", nil) {
		if err == nil {
			t.Error("zero hosts.Service All: no error")
		}
		break
	}
	// A zero evals.Service holds nil Suites and Runs: their methods fail as
	// any zero service's do, iterators and Wait included.
	var ev evals.Service
	unconfigured := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, projectops.ErrValidation) || !strings.Contains(err.Error(), "unconfigured client") {
			t.Errorf("zero evals.Service %s: %v", what, err)
		}
	}
	_, err := ev.Runs.Get(ctx, "p", "r")
	unconfigured("Runs.Get", err)
	_, err = ev.Runs.Wait(ctx, "p", "r")
	unconfigured("Runs.Wait", err)
	for _, err := range ev.Runs.AllIterations(ctx, "p", "r", nil) {
		unconfigured("Runs.AllIterations", err)
		break
	}
	_, err = ev.Suites.List(ctx, "p", nil)
	unconfigured("Suites.List", err)
	_, err = ev.Suites.Create(ctx, "p", evals.CreateSuiteParams{Name: "s"})
	unconfigured("Suites.Create", err)
	if s := (&environments.BuildError{}).Error(); s == "" {
		t.Error("zero BuildError: empty text")
	}
	if s := (&ingest.ReportingError{}).Error(); s == "" {
		t.Error("zero ReportingError: empty text")
	}
	if m := shared.MillisOf(time.Time{}); !m.IsZero() {
		t.Errorf("MillisOf(zero time) = %d", int64(m))
	}
}

package projectops_test

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cenkalti/backoff/v4"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
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

// Every service of a zero Client (nil pointers all) fails a call with the
// zero service's VALIDATION_ERROR instead of panicking on a nil pointer,
// and a nil *Client's own methods are safe.
func TestZeroClientServicesFailTyped(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	var c projectops.Client
	var zeroEvals evals.Service
	grant := &tunnels.Grant{RelayWSURL: "ws://relay.test/x", ConnectToken: "ct"}
	// A client of Serve's own, which once made a zero Client's Serve dial
	// the relay: its dial error is permanent, so such a Serve ends at once.
	var dialed atomic.Bool
	dialer := &http.Client{Transport: rtFunc(func(*http.Request) (*http.Response, error) {
		dialed.Store(true)
		return nil, backoff.Permanent(errors.New("dialed"))
	})}
	calls := map[string]func() error{
		"Catalog.Me":               func() error { _, err := c.Catalog.Me(ctx); return err },
		"Catalog.ListProjects":     func() error { _, err := c.Catalog.ListProjects(ctx, nil); return err },
		"Catalog.ListChatSessions": func() error { _, err := c.Catalog.ListChatSessions(ctx, nil); return err },
		"Catalog.HostCatalog":      func() error { _, err := c.Catalog.HostCatalog(ctx); return err },
		"Catalog.ListBuiltinTools": func() error { _, err := c.Catalog.ListBuiltinTools(ctx, "claude-code", nil); return err },
		"Catalog.ListChatboxes":    func() error { _, err := c.Catalog.ListChatboxes(ctx, "p", nil); return err },
		"Catalog.Chatbox":          func() error { _, err := c.Catalog.Chatbox(ctx, "p", "cb"); return err },
		"Catalog.AllProjects": func() error {
			for _, err := range c.Catalog.AllProjects(ctx, nil) {
				return err
			}
			return nil
		},
		"Servers.List":        func() error { _, err := c.Servers.List(ctx, "p", nil); return err },
		"Servers.Validate":    func() error { _, err := c.Servers.Validate(ctx, "p", "s"); return err },
		"Servers.ListTools":   func() error { _, err := c.Servers.ListTools(ctx, "p", "s", nil); return err },
		"Hosts.List":          func() error { _, err := c.Hosts.List(ctx, "p", nil); return err },
		"Hosts.Get":           func() error { _, err := c.Hosts.Get(ctx, "p", "h"); return err },
		"Hosts.Delete":        func() error { _, err := c.Hosts.Delete(ctx, "p", "h", nil); return err },
		"Ingest.UploadURL":    func() error { _, err := c.Ingest.UploadURL(ctx, "p"); return err },
		"Environments.List":   func() error { _, err := c.Environments.List(ctx, "p", nil); return err },
		"Environments.Get":    func() error { _, err := c.Environments.Get(ctx, "p", "e"); return err },
		"Environments.Delete": func() error { _, err := c.Environments.Delete(ctx, "p", "e"); return err },
		"Environments.Build":  func() error { _, err := c.Environments.Build(ctx, "p", "e"); return err },
		"Environments.Boot":   func() error { _, err := c.Environments.Boot(ctx, "p", "e"); return err },
		"Environments.Reset":  func() error { _, err := c.Environments.Reset(ctx, "p"); return err },
		"Environments.Share":  func() error { _, err := c.Environments.Share(ctx, "p", "e"); return err },
		"Environments.ListBuilds": func() error {
			_, err := c.Environments.ListBuilds(ctx, "p", "e", nil)
			return err
		},
		"Environments.WaitForBuild": func() error {
			_, err := c.Environments.WaitForBuild(ctx, "p", "e", "b")
			return err
		},
		"Tunnels.Create": func() error { _, err := c.Tunnels.Create(ctx, "p", tunnels.CreateParams{}); return err },
		"Tunnels.Close":  func() error { _, err := c.Tunnels.Close(ctx, "p", "s"); return err },
		"Tunnels.Serve":  func() error { return c.Tunnels.Serve(ctx, grant, http.NotFoundHandler()) },
		"Tunnels.Serve WithHTTPClient": func() error {
			return c.Tunnels.Serve(ctx, grant, http.NotFoundHandler(), tunnels.WithHTTPClient(dialer))
		},
		// A zero Client's Evals is nil, so its Runs and Suites are reached
		// through a zero evals.Service: nil sub-services, as NewClient's
		// never are.
		"Evals.Runs.Get":    func() error { _, err := zeroEvals.Runs.Get(ctx, "p", "r"); return err },
		"Evals.Suites.List": func() error { _, err := zeroEvals.Suites.List(ctx, "p", nil); return err },
	}
	for name, call := range calls {
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("zero Client %s panicked: %v", name, p)
				}
			}()
			if err := call(); !errors.Is(err, projectops.ErrValidation) || !strings.Contains(err.Error(), "unconfigured client") {
				t.Errorf("zero Client %s: %v; want the unconfigured client's VALIDATION_ERROR", name, err)
			}
		}()
	}
	if dialed.Load() {
		t.Error("zero Client Tunnels.Serve dialed the relay with WithHTTPClient's client")
	}
	if got := c.Ingest.RedactText("text"); got != "text" {
		t.Errorf("zero Client Ingest.RedactText = %q", got)
	}
	c.CloseIdleConnections()

	var nilClient *projectops.Client
	func() {
		defer func() {
			if p := recover(); p != nil {
				t.Errorf("nil *Client panicked: %v", p)
			}
		}()
		if s := nilClient.String(); !strings.Contains(s, "unconfigured") {
			t.Errorf("nil *Client String = %q", s)
		}
		if b := nilClient.BaseURL(); b != "" {
			t.Errorf("nil *Client BaseURL = %q", b)
		}
		nilClient.CloseIdleConnections()
	}()
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

// Every exported method of every service, nil or zero, called with zero
// or plausible arguments (its iterators drained to their first item),
// returns instead of panicking: found by reflection, so a method added
// later is covered too.
func TestZeroServicesNoMethodPanics(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	svcs := []any{(*catalog.Service)(nil), (*servers.Service)(nil), (*hosts.Service)(nil), (*ingest.Service)(nil),
		(*environments.Service)(nil), (*tunnels.Service)(nil), (*evals.RunService)(nil), (*evals.SuiteService)(nil),
		&catalog.Service{}, &servers.Service{}, &hosts.Service{}, &ingest.Service{}, &environments.Service{}, &tunnels.Service{},
		&evals.RunService{}, &evals.SuiteService{}}
	for _, s := range svcs {
		v := reflect.ValueOf(s)
		for i := range v.NumMethod() {
			name := v.Type().String() + "." + v.Type().Method(i).Name
			m := v.Method(i)
			args := zeroArgs(ctx, m.Type())
			func() {
				defer func() {
					if p := recover(); p != nil {
						t.Errorf("%s panicked: %v", name, p)
					}
				}()
				for _, o := range m.Call(args) {
					if o.Kind() == reflect.Func && o.Type().NumIn() == 1 { // an iter.Seq2: take one item
						stop := reflect.MakeFunc(o.Type().In(0), func([]reflect.Value) []reflect.Value { return []reflect.Value{reflect.ValueOf(false)} })
						o.Call([]reflect.Value{stop})
					}
				}
			}()
		}
	}
}

// zeroArgs is an argument list for a method of type mt, its variadic
// options left out: ctx for a context, "x" for a string, a new value for
// a pointer, a handler for an http.Handler, the zero value otherwise.
func zeroArgs(ctx context.Context, mt reflect.Type) []reflect.Value {
	n := mt.NumIn()
	if mt.IsVariadic() {
		n--
	}
	args := make([]reflect.Value, 0, n)
	for j := range n {
		switch in := mt.In(j); {
		case in == reflect.TypeFor[context.Context]():
			args = append(args, reflect.ValueOf(ctx))
		case in.Kind() == reflect.String:
			args = append(args, reflect.ValueOf("x").Convert(in))
		case in.Kind() == reflect.Pointer:
			args = append(args, reflect.New(in.Elem()))
		case in.Kind() == reflect.Interface && in.Implements(reflect.TypeFor[http.Handler]()):
			args = append(args, reflect.ValueOf(http.NotFoundHandler()))
		default:
			args = append(args, reflect.Zero(in))
		}
	}
	return args
}

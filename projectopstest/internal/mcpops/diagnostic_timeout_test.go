package mcpops

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// diagnosticLayer is a layer whose operations wait an hour but whose
// diagnostics (validate, doctor) wait 100 ms, and a caller's context that
// gives up after a minute: an answer that comes while the caller still
// waits came from the diagnostic bound.
func diagnosticLayer(t *testing.T) (*Layer, context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	l := New(ctx, Config{Timeout: time.Hour, DiagnosticTimeout: 100 * time.Millisecond, Idle: time.Minute,
		CloseTimeout: time.Second, Now: func() time.Time { return t0 }, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { l.Close(); cancel() })
	caller, stop := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(stop)
	return l, caller
}

// Validate and doctor connect within the diagnostic timeout, not the
// layer's: the service bounds both by its connect timeout (10 s), shorter
// than its call timeout. A server that never answers initialize gets
// TIMEOUT from the diagnostic bound.
func TestDiagnosticsConnectWithinDiagnosticTimeout(t *testing.T) {
	t.Parallel()
	hang := make(chan struct{})
	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-hang:
		}
	}))
	t.Cleanup(mute.Close)
	t.Cleanup(func() { close(hang) }) // first: an abandoned request may hold its handler
	l, caller := diagnosticLayer(t)
	open := func() *Call {
		return l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_1", Transport: servers.TransportHTTP,
			URL: mute.URL, Target: mcpconn.Target{Transport: mcpconn.TransportHTTP, URL: mute.URL}})
	}
	_, herr := Validate(caller, open())
	if herr == nil || herr.Body.Code != shared.CodeTimeout || caller.Err() != nil {
		t.Errorf("validate of a mute server = %v (caller's context: %v), want TIMEOUT before the caller gave up", herr, caller.Err())
	}
	rep, herr := Doctor(caller, open(), nil)
	if herr != nil || rep.Error == nil || rep.Error.Code != shared.CodeTimeout || caller.Err() != nil {
		t.Errorf("doctor of a mute server = %+v, %v (caller's context: %v), want a report with a TIMEOUT error before the caller gave up",
			rep.Error, herr, caller.Err())
	}
}

// The doctor's listings are bounded by the diagnostic timeout too, as the
// service's doctor bounds its requests: a server that never answers
// tools/list makes a partial report whose tools step timed out.
func TestDoctorListsWithinDiagnosticTimeout(t *testing.T) {
	t.Parallel()
	s := pagedServer()
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, m string, req mcp.Request) (mcp.Result, error) {
			if m == "tools/list" {
				<-ctx.Done()
				return nil, ctx.Err()
			}
			return next(ctx, m, req)
		}
	})
	l, caller := diagnosticLayer(t)
	sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_1", URL: "http://inprocess.invalid/paged",
		Transport: servers.TransportHTTP, Target: mcpconn.Target{Transport: mcpconn.TransportInProcess, Server: s}})
	rep, herr := Doctor(caller, sc, nil)
	if herr != nil || rep.Status != servers.DoctorPartial || rep.Error == nil || rep.Error.Code != shared.CodeTimeout || caller.Err() != nil {
		t.Errorf("doctor of a server mute on tools/list = status %s, error %+v, %v (caller's context: %v); want partial with TIMEOUT before the caller gave up",
			rep.Status, rep.Error, herr, caller.Err())
	}
}

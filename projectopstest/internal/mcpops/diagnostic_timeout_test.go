package mcpops

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// diagnosticLayer is a layer whose operations wait an hour but whose
// diagnostics (validate, doctor) wait a second (long enough for connecting
// to an in-process server on a loaded machine; 100 ms was not), and a
// caller's context that gives up after a minute: an answer that comes while
// the caller still waits came from the diagnostic bound.
func diagnosticLayer(t *testing.T) (*Layer, context.Context) {
	t.Helper()
	l := layerWith(t, Config{Timeout: time.Hour, DiagnosticTimeout: time.Second})
	caller, stop := context.WithTimeout(t.Context(), time.Minute)
	t.Cleanup(stop)
	return l, caller
}

// Validate and doctor connect within the diagnostic timeout, not the
// layer's: the service bounds both by its connect timeout (10 s), shorter
// than its call timeout. A server that never answers initialize gets
// TIMEOUT from the diagnostic bound, and the server is left holding no
// request of the double's.
func TestDiagnosticsConnectWithinDiagnosticTimeout(t *testing.T) {
	t.Parallel()
	var seen, inFlight atomic.Int32
	mute := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen.Add(1)
		inFlight.Add(1)
		defer inFlight.Add(-1)
		// net/http notices the client hanging up only once the body is read.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	// Cutting the connections ends what a leaked request still holds.
	t.Cleanup(func() { mute.CloseClientConnections(); mute.Close() })
	released := func(op string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); inFlight.Load() != 0 && time.Now().Before(deadline); {
			time.Sleep(10 * time.Millisecond)
		}
		if n := inFlight.Load(); seen.Load() == 0 || n != 0 {
			t.Errorf("%s: the mute server saw %d request(s) and still holds %d 10 s after the answer; want some, none held", op, seen.Load(), n)
		}
	}
	l, caller := diagnosticLayer(t)
	open := func() *Call {
		return l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_1", Transport: servers.TransportHTTP,
			URL: mute.URL, Target: mcpconn.Target{Transport: mcpconn.TransportHTTP, URL: mute.URL}})
	}
	_, herr := Validate(caller, open())
	if herr == nil || herr.Body.Code != shared.CodeTimeout || caller.Err() != nil {
		t.Errorf("validate of a mute server = %v (caller's context: %v), want TIMEOUT before the caller gave up", herr, caller.Err())
	}
	released("validate")
	rep, herr := Doctor(caller, open(), nil)
	if herr != nil || rep.Error == nil || rep.Error.Code != shared.CodeTimeout || caller.Err() != nil {
		t.Errorf("doctor of a mute server = %+v, %v (caller's context: %v), want a report with a TIMEOUT error before the caller gave up",
			rep.Error, herr, caller.Err())
	}
	released("doctor")
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

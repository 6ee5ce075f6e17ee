package mcpops

import (
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// A server that answers and then exits keeps its answer: -32002 is 404
// even when the session's reading fails right after (it became 502).
func TestAnswerThenExitKeepsTheAnswer(t *testing.T) {
	t.Parallel()
	script := `read l
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"resources":{}},"serverInfo":{"name":"x","version":"1"}}}'
read l
read l
printf '%s\n' '{"jsonrpc":"2.0","id":2,"error":{"code":-32002,"message":"Resource not found"}}'
exit 0`
	for range 20 { // the exit races the answer's classification
		l := newLayer(t)
		sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_1", Transport: servers.TransportStdio,
			Target: mcpconn.Target{Transport: mcpconn.TransportStdio, Command: "sh", Args: []string{"-c", script}, ProtocolVersion: "2025-11-25"}})
		_, herr := ReadResource(t.Context(), sc, &servers.ReadResourceParams{URI: "test://gone"})
		if herr == nil || herr.Body.Code != shared.CodeNotFound {
			t.Fatalf("ReadResource = %v, want 404 NOT_FOUND: the server answered -32002", herr)
		}
	}
}

// A session whose server exited after answering is not used again: the
// next call dials anew (it was refused unsent on the dead session, 502).
func TestAnswerThenExitNextCallDialsAnew(t *testing.T) {
	t.Parallel()
	script := `read l
printf '%s\n' '{"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"x","version":"1"}}}'
read l
read l
printf '%s\n' '{"jsonrpc":"2.0","id":2,"error":{"code":-32602,"message":"bad arguments"}}'
exit 0`
	l := newLayer(t)
	sc := l.Open(Call{UserID: "usr_1", ProjectID: "prj_1", ServerID: "srv_1", Transport: servers.TransportStdio,
		Target: mcpconn.Target{Transport: mcpconn.TransportStdio, Command: "sh", Args: []string{"-c", script}, ProtocolVersion: "2025-11-25"}})
	for i := range 2 {
		_, herr := CallTool(t.Context(), sc, &CallToolBody{CallToolParams: servers.CallToolParams{ToolName: "t"}})
		if herr == nil || herr.Body.Code != shared.CodeValidation {
			t.Fatalf("call %d = %v, want 400 VALIDATION_ERROR: the server answers -32602", i, herr)
		}
		// Sequencing, not a measurement: the server has exited by now and
		// the session has read its end before the next call.
		time.Sleep(200 * time.Millisecond)
	}
}

//go:build integration

package servers_test

import (
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// server-everything's gzip-file-as-resource registers its output as a
// session-scoped resource ("downloaded in a subsequent request during the
// current session"; its instructions: "Session resources are ephemeral and
// lost when the session ends"). On the service every server operation is its
// own MCP connection (runEphemeralConnection: connect, run one operation,
// disconnectAllServers), so the resource link a tools/call returns cannot be
// read by a later resources/read: that request's new session has no such
// resource (server-everything answers -32602 "Resource ... not found").
//
// So it is on the double, for an HTTP server. A stdio server (which the
// hosted service refuses to run) is the double's documented exception: its
// session is kept for later calls, so the resource reads back there.
func TestSessionResourceDoesNotOutliveTheRequest(t *testing.T) {
	t.Parallel()
	node, entry := everythingEntry(t)
	for _, tt := range []struct {
		name string
		spec projectopstest.ServerSpec
		kept bool
	}{
		{"http", projectopstest.ServerSpec{URL: startEverythingHTTP(t)}, false},
		{"stdio", projectopstest.ServerSpec{Command: node, Args: []string{entry, "stdio"}}, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			f := setup(t)
			ctx, p := t.Context(), f.WS.ProjectID
			spec := tt.spec
			spec.ProjectID, spec.Name, spec.ProtocolVersion = p, "everything", "2025-11-25"
			id := must(t)(f.Srv.AddServer(spec))
			res, err := f.C.Servers.CallTool(ctx, p, id, servers.CallToolParams{ToolName: "gzip-file-as-resource",
				Parameters: map[string]any{"name": "note.gz", "data": "data:text/plain,hello", "outputType": "resourceLink"}})
			if err != nil || res.IsError || len(res.Content) != 1 {
				t.Fatalf("gzip-file-as-resource: %+v, %v", res, err)
			}
			link, ok := res.Content[0].(*mcp.ResourceLink)
			if !ok {
				t.Fatalf("content %T, want a resource link", res.Content[0])
			}
			rr, err := f.C.Servers.ReadResource(ctx, p, id, servers.ReadResourceParams{URI: link.URI})
			switch {
			case tt.kept && err != nil:
				t.Errorf("resources/read %s on the kept stdio session: %v", link.URI, err)
			case !tt.kept && err == nil:
				t.Errorf("resources/read %s in a later request = %d contents, want an error: the session that registered it ended with the tools/call request on the service", link.URI, len(rr.Contents))
			case !tt.kept && !errors.Is(err, shared.ErrNotFound):
				t.Errorf("resources/read: %v, want 404", err)
			}
		})
	}
}

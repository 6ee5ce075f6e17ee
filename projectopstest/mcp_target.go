package projectopstest

import (
	"maps"
	"net/url"
	"slices"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/projectopstest/internal/mcpops"
	"github.com/projectops/projectops-go/servers"
)

// mcpBackend is what a saved server's record needs beyond the listed
// fields to reach its MCP server (serverRec.backend).
type mcpBackend struct {
	inProcess       *mcp.Server
	protocolVersion string
	tokenURL        string
}

// InProcessServerURL is the URL listed for an in-process server saved
// without one. The .invalid domain never resolves: the double connects in
// process whatever the URL says.
func InProcessServerURL(name string) string {
	return "http://" + mcpops.InProcessHost + "/" + url.PathEscape(name)
}

// inProcessDefaults fills what an in-process server leaves empty.
func inProcessDefaults(spec ServerSpec) ServerSpec {
	if spec.MCPServer == nil {
		return spec
	}
	if spec.TransportType == "" {
		spec.TransportType = servers.TransportHTTP
	}
	if spec.URL == "" {
		spec.URL = InProcessServerURL(spec.Name)
	}
	return spec
}

func backendOf(spec ServerSpec) *mcpBackend {
	return &mcpBackend{inProcess: spec.MCPServer, protocolVersion: spec.ProtocolVersion, tokenURL: spec.OAuthTokenURL}
}

// targetLocked describes how to reach sv's MCP server. Call with
// Server.mu held: it copies everything it needs out of the record.
func targetLocked(sv *serverRec) mcpconn.Target {
	b, _ := sv.backend.(*mcpBackend)
	if b == nil {
		b = &mcpBackend{}
	}
	t := mcpconn.Target{Transport: sv.transport, URL: sv.url, ProtocolVersion: b.protocolVersion}
	switch {
	case b.inProcess != nil:
		t.Transport, t.Server = mcpconn.TransportInProcess, b.inProcess
	case sv.transport == servers.TransportStdio:
		t.Command = sv.command
		t.Args = append([]string(nil), sv.args...)
		for _, k := range sortedKeys(sv.env) {
			t.Env = append(t.Env, k+"="+string(sv.env[k]))
		}
	default:
		if len(sv.headers) > 0 {
			t.Headers = make(map[string]string, len(sv.headers))
			for k, v := range sv.headers {
				t.Headers[k] = string(v)
			}
		}
	}
	return t
}

func sortedKeys(m map[string]Secret) []string { return slices.Sorted(maps.Keys(m)) }

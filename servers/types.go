package servers

import "github.com/projectops/projectops-go/shared"

// Transport types of saved servers. The service lists TransportHTTP or
// TransportStdio; TransportSSE is never listed (a server reached over SSE
// is an http record): it names the legacy SSE transport where a server is
// described rather than listed, such as projectopstest.ServerSpec.
const (
	TransportHTTP  = "http"
	TransportSSE   = "sse"
	TransportStdio = "stdio"
)

// Server is a saved MCP server of a project. STDIO command, arguments,
// environment and raw headers are never returned by the service.
type Server struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectId,omitempty"`
	Name      string `json:"name"`
	Enabled   bool   `json:"enabled"`
	// TransportType is TransportHTTP or TransportStdio (an SSE server is
	// an http record).
	TransportType string `json:"transportType"`
	// URL is the endpoint of an http server; empty for stdio.
	URL             string        `json:"url,omitempty"`
	UseOAuth        bool          `json:"useOAuth"`
	HasClientSecret bool          `json:"hasClientSecret"`
	OAuthScopes     []string      `json:"oauthScopes,omitempty"`
	CreatedAt       shared.Millis `json:"createdAt,omitempty"`
	UpdatedAt       shared.Millis `json:"updatedAt,omitempty"`
}

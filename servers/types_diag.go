package servers

import (
	"encoding/json"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/projectops/projectops-go/shared"
)

// ValidateResult is the connection snapshot of a successful validate: the
// service connected to the MCP server and initialized a session.
type ValidateResult struct {
	// Success is always true; failures are errors.
	Success bool `json:"success"`
	// Status is always "connected".
	Status string `json:"status"`
	// InitInfo is what the service learned initializing the session. Nil
	// when the service connected but had none.
	InitInfo *InitInfo `json:"initInfo"`
}

// InitInfo is the service's summary of an initialized MCP session (its
// client's initialization info), not the MCP initialize result: the
// server's info is ServerVersion and its capabilities ServerCapabilities.
// A field the service did not have is left out of the body and is zero
// here.
type InitInfo struct {
	// ProtocolVersion is the negotiated MCP protocol version.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// Transport is the transport that connected: InitTransportStreamableHTTP,
	// InitTransportSSE or InitTransportStdio.
	Transport string `json:"transport,omitempty"`
	// ServerCapabilities are the capabilities the server advertised.
	ServerCapabilities *mcp.ServerCapabilities `json:"serverCapabilities,omitempty"`
	// ServerVersion is the server's implementation info (its initialize
	// result's serverInfo): name, version, title.
	ServerVersion *mcp.Implementation `json:"serverVersion,omitempty"`
	// Instructions are the server's usage instructions, "" when it gave
	// none.
	Instructions string `json:"instructions,omitempty"`
	// ClientCapabilities are the capabilities the service's client
	// declared to the server.
	ClientCapabilities *mcp.ClientCapabilities `json:"clientCapabilities,omitempty"`
}

// Transports an InitInfo names: the one that actually connected, which for
// an HTTP server may differ from the saved TransportType (a fallback to
// SSE, say).
const (
	InitTransportStreamableHTTP = "streamable-http"
	InitTransportSSE            = "sse"
	InitTransportStdio          = "stdio"
)

// DoctorStatus is the overall outcome of a doctor run.
type DoctorStatus string

// Doctor outcomes.
const (
	// DoctorReady: connected, initialized, every advertised listing worked.
	DoctorReady DoctorStatus = "ready"
	// DoctorOAuthRequired: the server answered the service's probe 401
	// (its Streamable HTTP POST, or the SSE GET it tries after a 404,
	// 405, 406, 415 or 501) and the caller has no credentials: no grant,
	// no saved bearer header named "Authorization" or else
	// "authorization", the two spellings the service looks up
	// ("AUTHORIZATION" is not credentials). The connection is then
	// ConnectionSkipped and the error OAUTH_REQUIRED (import tokens). A
	// server that refuses credentials, or answers 403, is DoctorError,
	// its error ReportCodeAuthError.
	DoctorOAuthRequired DoctorStatus = "oauth_required"
	// DoctorPartial: connected, but some primitive listings failed.
	DoctorPartial DoctorStatus = "partial"
	// DoctorError: the server could not be connected or initialized.
	DoctorError DoctorStatus = "error"
)

// CheckStatus is the outcome of one doctor step.
type CheckStatus string

// Step outcomes.
const (
	CheckOK      CheckStatus = "ok"
	CheckError   CheckStatus = "error"
	CheckSkipped CheckStatus = "skipped"
)

// Connection statuses of a doctor report.
const (
	ConnectionConnected = "connected"
	ConnectionError     = "error"
	ConnectionSkipped   = "skipped"
)

// DoctorReport is the step-by-step health report of a server: probe,
// connection, initialization, capabilities, then each primitive listing.
// A doctor run that finds a broken server is still a successful call: the
// report says what failed.
type DoctorReport struct {
	GeneratedAt time.Time    `json:"generatedAt"`
	Status      DoctorStatus `json:"status"`
	// Probe is the transport-level probe result, nil when skipped.
	Probe      map[string]any `json:"probe"`
	Connection Connection     `json:"connection"`
	// InitInfo is what the service learned initializing the session, nil
	// when it did not connect.
	InitInfo *InitInfo `json:"initInfo"`
	// Capabilities are the server's negotiated capabilities.
	Capabilities *mcp.ServerCapabilities `json:"capabilities"`
	// Tools, Resources, ResourceTemplates and Prompts are the server's
	// listings. The service sends each as an array in every report, []
	// when the server has none, does not serve the listing, the listing
	// failed or the server was not connected; they are empty, not nil,
	// once decoded from one, and encode so (a report without them, as the
	// reference allows, leaves them nil, and encodes without them). Tools are each
	// without its _meta (the service strips it from the report).
	Tools             []*mcp.Tool             `json:"tools,omitzero"`
	Resources         []*mcp.Resource         `json:"resources,omitzero"`
	ResourceTemplates []*mcp.ResourceTemplate `json:"resourceTemplates,omitzero"`
	Prompts           []*mcp.Prompt           `json:"prompts,omitzero"`
	// ToolsMetadata is each tool's _meta, which the service strips from
	// Tools, by tool name ({toolName: _meta}, for the tools sent with
	// one), each value as the server sent it. The service sends it in
	// every report, {} when no tool has a _meta or the server was not
	// connected.
	ToolsMetadata map[string]json.RawMessage `json:"toolsMetadata,omitzero"`
	Checks        DoctorChecks               `json:"checks"`
	// Target names the server examined; nil when the report has none.
	Target *DoctorTarget `json:"target,omitempty"`
	// Error is the error that ended the workflow; in a DoctorPartial
	// report, the first failed listing's (by tools, resources, prompts,
	// resource templates) code and message; nil in a DoctorReady one.
	Error *ReportError `json:"error"`
}

// DoctorTarget names the server a doctor report examined. The current
// service sends it in every report, beyond the 2026-07-09 reference (a
// report without it leaves DoctorReport.Target nil).
type DoctorTarget struct {
	// Kind is DoctorTargetHTTP for every server the hosted service
	// examines, whatever its transport.
	Kind string `json:"kind"`
	// Scope is DoctorScopeHosted: the service examined it.
	Scope     string `json:"scope"`
	ProjectID string `json:"projectId"`
	ServerID  string `json:"serverId"`
	// Label is the request's serverName, else the server id.
	Label string `json:"label"`
	// URL is the server's URL ("" for a server without one, a stdio
	// server). A tunnel's holds its ?k= secret, which printing and
	// logging redact.
	URL string `json:"url,omitempty"`
}

// The values of DoctorTarget's Kind and Scope the service sends.
const (
	DoctorTargetHTTP  = "http"
	DoctorScopeHosted = "hosted"
)

// Connection is the connection step's outcome: ConnectionConnected,
// ConnectionError or ConnectionSkipped, with a human-readable detail.
type Connection struct {
	Status string `json:"status"`
	Detail string `json:"detail"`
}

// DoctorChecks holds each step's outcome; a step the service did not report
// is nil.
type DoctorChecks struct {
	Probe             *DoctorCheck `json:"probe,omitempty"`
	Connection        *DoctorCheck `json:"connection,omitempty"`
	Initialization    *DoctorCheck `json:"initialization,omitempty"`
	Capabilities      *DoctorCheck `json:"capabilities,omitempty"`
	Tools             *DoctorCheck `json:"tools,omitzero"`
	Resources         *DoctorCheck `json:"resources,omitzero"`
	ResourceTemplates *DoctorCheck `json:"resourceTemplates,omitzero"`
	Prompts           *DoctorCheck `json:"prompts,omitzero"`
}

// DoctorCheck is one step's outcome.
type DoctorCheck struct {
	Status CheckStatus `json:"status"`
	Detail string      `json:"detail"`
}

// ReportCodeAuthError is the code of a doctor report's error when the
// server refused the connection (401 to a caller with credentials, or
// 403): the service's MCP client's auth error code, found only in doctor
// reports, never in the API's error envelope. The service sends its
// client's error itself, which serialises without a message (read the
// report's Connection.Detail for the text) and with the refusal's HTTP
// status in StatusCode when known; the double sends the same, with an
// empty message and without the service's name ("MCPAuthError"). A 403
// saying insufficient_scope is the exception the double cannot follow: it
// reports AUTH_ERROR, where the service's client raises an
// insufficient-scope error of its own, which its doctor reports under
// another code.
const ReportCodeAuthError shared.Code = "AUTH_ERROR"

// ReportError is the error envelope of the failure that ended a doctor run.
type ReportError struct {
	Code    shared.Code `json:"code"`
	Message string      `json:"message"`
	// Details is any JSON value (the reference leaves it untyped, unlike
	// the error envelope's object): usually a map[string]any.
	Details any `json:"details,omitempty"`
	// StatusCode is the HTTP status a refused connection got: the service
	// sends it with ReportCodeAuthError, beyond the reference; 0 when
	// unknown and for every other code.
	StatusCode int `json:"statusCode,omitempty"`
}

// CheckOAuthResult says whether a server is configured to require an OAuth
// grant. It is answered from configuration, without connecting.
type CheckOAuthResult struct {
	// UseOAuth is the server record's OAuth flag, which says only whether
	// the server could use OAuth; act on RequiresAuthorization.
	UseOAuth bool `json:"useOAuth"`
	// RequiresAuthorization reports whether someone must grant OAuth
	// access (ImportTokens, or the hosted product) before the server can
	// be used: EffectiveAuthMethod is "oauth". Sent by the current service,
	// beyond the 2026-07-09 reference; false from a service that does not
	// send it.
	RequiresAuthorization bool `json:"requiresAuthorization"`
	// EffectiveAuthMethod is how the service authenticates to the server
	// when it connects: "oauth", "xaa" (enterprise-managed authorization),
	// "bearer", "none", or "discover" (connect without a token and take up
	// OAuth only if the server answers 401). Sent by the current service,
	// beyond the 2026-07-09 reference; "" from a service that does not.
	EffectiveAuthMethod string `json:"effectiveAuthMethod"`
	// ServerURL is the server's URL; nil for stdio servers.
	ServerURL *string `json:"serverUrl"`
}

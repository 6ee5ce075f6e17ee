package catalog

import (
	"encoding/json"
	"strings"

	"github.com/projectops/projectops-go/shared"
)

// Me is the account behind the API key (GET /me).
type Me struct {
	ID                string        `json:"id"`
	Email             string        `json:"email"`
	Name              string        `json:"name"`
	ImageURL          string        `json:"imageUrl,omitempty"`
	ProfilePictureURL string        `json:"profilePictureUrl,omitempty"`
	Plan              string        `json:"plan,omitempty"`
	CreatedAt         shared.Millis `json:"createdAt,omitempty"`
	UpdatedAt         shared.Millis `json:"updatedAt,omitempty"`
}

// Project is a project the caller can access inside the key's organization.
type Project struct {
	ID             string `json:"id"`
	Name           string `json:"name"`
	Description    string `json:"description,omitempty"`
	Icon           string `json:"icon,omitempty"`
	OrganizationID string `json:"organizationId,omitempty"`
	Visibility     string `json:"visibility,omitempty"`
	// Role is the caller's role on the project, when resolved.
	Role      string        `json:"role,omitempty"`
	CreatedAt shared.Millis `json:"createdAt,omitempty"`
	UpdatedAt shared.Millis `json:"updatedAt,omitempty"`
}

// ProjectsParams filters GET /projects.
type ProjectsParams struct {
	// OrganizationID limits the listing to one organization; only the key's
	// own organization ever has projects.
	OrganizationID string
	// Cursor is a previous page's NextCursor.
	Cursor string
}

// ListParams pages a listing without filters.
type ListParams struct {
	// Cursor is a previous page's NextCursor.
	Cursor string
}

// Chat session statuses accepted by ChatSessionsParams.Status.
const (
	ChatSessionActive   = "active"
	ChatSessionArchived = "archived"
)

// ChatSession is a chat visible to the caller, personal or project-shared.
type ChatSession struct {
	ID        string `json:"id"`
	Title     string `json:"title,omitempty"`
	Status    string `json:"status,omitempty"`
	ProjectID string `json:"projectId,omitempty"`
	// Visibility is "private" (personal) or "project" (shared).
	Visibility     string        `json:"visibility,omitempty"`
	LastActivityAt shared.Millis `json:"lastActivityAt,omitempty"`
	CreatedAt      shared.Millis `json:"createdAt,omitempty"`
	IsPinned       bool          `json:"isPinned,omitempty"`
	IsUnread       bool          `json:"isUnread,omitempty"`
}

// ChatSessionsParams filters GET /chat-sessions. Zero values are omitted.
type ChatSessionsParams struct {
	ProjectID string
	// Status is ChatSessionActive (the service default) or ChatSessionArchived.
	Status string
	// Limit is the page size, 1 to MaxChatSessionsLimit (service default
	// 50); one outside that is refused before a request is sent.
	Limit int
	// Cursor is a previous page's NextCursor, as in every listing; it is
	// sent as the service's "before" query parameter.
	Cursor string
}

// MaxChatSessionsLimit is the largest page of chat sessions.
const MaxChatSessionsLimit = 200

// Host-catalog sources.
const (
	SourceLive    = "live"
	SourceBundled = "bundled"
)

// HostCatalog is the public host-compatibility catalog (GET /host-catalog).
type HostCatalog struct {
	SchemaVersion int           `json:"schemaVersion"`
	Version       int64         `json:"version"`
	ContentHash   string        `json:"contentHash"`
	PublishedAt   shared.Millis `json:"publishedAt"`
	// Source is SourceLive when the published catalog was reachable and
	// SourceBundled when the built-in snapshot is served.
	Source  string             `json:"source"`
	Catalog HostCatalogContent `json:"catalog"`
}

// HostCatalogContent is the catalog document.
type HostCatalogContent struct {
	// HostsByID maps a host style (e.g. "claude") to its entry.
	HostsByID map[string]CatalogHost `json:"hostsById"`
}

// CatalogHost is one host of the catalog: display facts (the metadata
// half) plus the host config v2 creation fields a host config is seeded
// from (the template half). The members the reference marks required are
// always encoded; optional ones absent from the entry stay absent when it
// is encoded again, and present empty lists and objects stay.
type CatalogHost struct {
	// ID equals the entry's hostsById key.
	ID string `json:"id"`
	// Label is the display name.
	Label string `json:"label"`
	// Provenance is the trust level of the facts: "observed", "probe",
	// "vendor-doc" or "assumed".
	Provenance string `json:"provenance"`
	// RendersMCPApps reports whether the host renders MCP Apps.
	RendersMCPApps bool `json:"rendersMcpApps"`
	// SupportedProtocolVersions are the MCP versions the template pins, if any.
	SupportedProtocolVersions []string `json:"supportedProtocolVersions,omitzero"`
	// VerifiedAt is when the facts were last verified.
	VerifiedAt shared.Millis `json:"verifiedAt,omitempty"`
	// ImageSupport describes which images reach the model and the UI.
	ImageSupport map[string]any `json:"imageSupport,omitzero"`
	// CompatibilityEvidence holds documented capability tables and
	// deployment facts (newer catalogs only; copilot).
	CompatibilityEvidence map[string]any `json:"compatibilityEvidence,omitzero"`
	// StyleVariablesByTheme maps "light" and "dark" to CSS variables the
	// host sets (newer catalogs only; chatgpt, codex).
	StyleVariablesByTheme map[string]map[string]string `json:"styleVariablesByTheme,omitzero"`

	// HostStyle is the chat surface the host config renders (equals ID for
	// the built-ins).
	HostStyle string `json:"hostStyle"`
	// ModelID is the template's model id; may be "".
	ModelID string `json:"modelId"`
	// SystemPrompt is the template's system prompt.
	SystemPrompt string `json:"systemPrompt"`
	// Temperature is the template's sampling temperature.
	Temperature float64 `json:"temperature"`
	// RequireToolApproval makes every tool call wait for approval.
	RequireToolApproval bool `json:"requireToolApproval"`
	// RespectToolVisibility hides tools their server marks as not model-visible.
	RespectToolVisibility bool `json:"respectToolVisibility"`
	// ProgressiveToolDiscovery is nil when the entry does not set it.
	ProgressiveToolDiscovery *bool `json:"progressiveToolDiscovery,omitempty"`
	// ServerIDs are the servers the host config always connects.
	ServerIDs []string `json:"serverIds"`
	// OptionalServerIDs are the servers a chat may opt into.
	OptionalServerIDs []string `json:"optionalServerIds"`
	// BuiltInToolIDs are the harness built-in tools enabled.
	BuiltInToolIDs []string `json:"builtInToolIds"`
	// ModelVisibleMCPToolResults says which tool-result images the model sees.
	ModelVisibleMCPToolResults map[string]any `json:"modelVisibleMcpToolResults,omitzero"`
	// MCPToolResultImageRendering says how tool-result images are rendered.
	MCPToolResultImageRendering map[string]any `json:"mcpToolResultImageRendering,omitzero"`
	// Computer is the sandbox the host runs in, nil when it has none.
	Computer *CatalogComputer `json:"computer,omitempty"`
	// Harness is the agent harness ("claude-code" or "codex"), if any.
	Harness string `json:"harness,omitempty"`
	// ConnectionDefaults apply to every server connection of the host.
	ConnectionDefaults CatalogConnectionDefaults `json:"connectionDefaults"`
	// ClientCapabilities are the MCP client capabilities the host declares.
	ClientCapabilities map[string]any `json:"clientCapabilities"`
	// HostContext is the MCP Apps host context ({} for non-rendering hosts).
	HostContext map[string]any `json:"hostContext"`
	// HostCapabilitiesOverride overrides the MCP Apps host capabilities.
	HostCapabilitiesOverride map[string]any `json:"hostCapabilitiesOverride,omitzero"`
	// ChatUIOverride overrides the chat UI settings.
	ChatUIOverride map[string]any `json:"chatUiOverride,omitzero"`
	// MCPProfile is the host's MCP behaviour profile (passthrough object).
	MCPProfile map[string]any `json:"mcpProfile,omitzero"`
	// ServerConnectionOverrides maps a server id to its connection overrides.
	ServerConnectionOverrides map[string]any `json:"serverConnectionOverrides,omitzero"`

	// Extra holds the entry's members this type does not model (one a
	// newer catalog adds), kept verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

// CatalogComputer is the sandbox a host template runs in.
type CatalogComputer struct {
	// Kind is the computer kind ("personal").
	Kind string `json:"kind"`
	// Workdir is the working directory, if set.
	Workdir string `json:"workdir,omitempty"`
}

// CatalogConnectionDefaults are a host template's server connection defaults.
type CatalogConnectionDefaults struct {
	// Headers are sent on every server connection.
	Headers map[string]string `json:"headers"`
	// RequestTimeout is the per-request timeout in milliseconds.
	RequestTimeout float64 `json:"requestTimeout"`
}

type catalogHostFields CatalogHost

var catalogHostKnown = map[string]bool{
	"id": true, "label": true, "provenance": true, "rendersMcpApps": true,
	"supportedProtocolVersions": true, "verifiedAt": true, "imageSupport": true,
	"compatibilityEvidence": true, "styleVariablesByTheme": true,
	"hostStyle": true, "modelId": true, "systemPrompt": true, "temperature": true,
	"requireToolApproval": true, "respectToolVisibility": true, "progressiveToolDiscovery": true,
	"serverIds": true, "optionalServerIds": true, "builtInToolIds": true,
	"modelVisibleMcpToolResults": true, "mcpToolResultImageRendering": true, "computer": true,
	"harness": true, "connectionDefaults": true, "clientCapabilities": true, "hostContext": true,
	"hostCapabilitiesOverride": true, "chatUiOverride": true, "mcpProfile": true,
	"serverConnectionOverrides": true,
}

// UnmarshalJSON decodes the known fields and keeps the rest in Extra.
func (h *CatalogHost) UnmarshalJSON(b []byte) error {
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		return err
	}
	var f catalogHostFields
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	f.Extra = nil
	for k, v := range all {
		if !isCatalogHostKnown(k) {
			if f.Extra == nil {
				f.Extra = map[string]json.RawMessage{}
			}
			f.Extra[k] = v
		}
	}
	*h = CatalogHost(f)
	return nil
}

// MarshalJSON writes the known fields and Extra side by side.
func (h CatalogHost) MarshalJSON() ([]byte, error) {
	known, err := json.Marshal(catalogHostFields(h))
	if err != nil || len(h.Extra) == 0 {
		return known, err
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(known, &all); err != nil {
		return nil, err
	}
	for k, v := range h.Extra {
		if !isCatalogHostKnown(k) {
			all[k] = v
		}
	}
	return json.Marshal(all)
}

// isCatalogHostKnown reports a key a CatalogHost field decodes, in any
// case, as encoding/json matches keys: "ModelId" fills ModelID, so it is
// no Extra member too.
func isCatalogHostKnown(k string) bool {
	if catalogHostKnown[k] {
		return true
	}
	for known := range catalogHostKnown {
		if strings.EqualFold(k, known) {
			return true
		}
	}
	return false
}

// BuiltinTool is a native tool an agent harness runs inside its sandbox.
// Display-only: it cannot be called through the service.
type BuiltinTool struct {
	Key         string         `json:"key"`
	Name        string         `json:"name"`
	CommonName  string         `json:"commonName,omitempty"`
	ToolUseKind string         `json:"toolUseKind,omitempty"`
	Description string         `json:"description,omitempty"`
	InputSchema map[string]any `json:"inputSchema,omitzero"`
}

// Chatbox access modes.
const (
	ModeProjectMembers = "project_members"
	ModeInvitedOnly    = "invited_only"
	ModeAnyoneWithLink = "anyone_with_link"
)

// Chatbox is the summary of a published chatbox.
type Chatbox struct {
	ID          string `json:"id"`
	ProjectID   string `json:"projectId,omitempty"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Mode is who can use the chatbox: one of the Mode constants.
	Mode string `json:"mode,omitempty"`
	// HostStyle is the chat surface the chatbox renders, e.g. "claude".
	HostStyle   string        `json:"hostStyle,omitempty"`
	HostID      string        `json:"hostId,omitempty"`
	HostName    string        `json:"hostName,omitempty"`
	ServerCount int           `json:"serverCount"`
	ServerNames []string      `json:"serverNames"`
	Link        *ChatboxLink  `json:"link,omitempty"`
	CreatedAt   shared.Millis `json:"createdAt,omitempty"`
	UpdatedAt   shared.Millis `json:"updatedAt,omitempty"`
}

// ChatboxLink is a chatbox's share link.
type ChatboxLink struct {
	Path string `json:"path"`
	URL  string `json:"url"`
}

// ChatboxDetail is a chatbox's full read-only settings.
type ChatboxDetail struct {
	Chatbox
	ModelID             string          `json:"modelId,omitempty"`
	SystemPrompt        string          `json:"systemPrompt,omitempty"`
	Temperature         *float64        `json:"temperature,omitempty"`
	RequireToolApproval bool            `json:"requireToolApproval"`
	Servers             []ChatboxServer `json:"servers"`
}

// ChatboxServer is a server attached to a chatbox.
type ChatboxServer struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	URL      string `json:"url,omitempty"`
	UseOAuth bool   `json:"useOAuth"`
}

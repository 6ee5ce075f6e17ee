package catalog

import (
	"encoding/json"

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
	// Limit is the page size, 1–200 (service default 50).
	Limit int
	// Cursor is a previous page's NextCursor, as in every listing; it is
	// sent as the service's "before" query parameter.
	Cursor string
}

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

// CatalogHost is one host of the catalog: display facts plus the creation
// fields a host config is seeded from.
type CatalogHost struct {
	ID                        string         `json:"id"`
	Label                     string         `json:"label"`
	Provenance                string         `json:"provenance"`
	RendersMCPApps            bool           `json:"rendersMcpApps"`
	SupportedProtocolVersions []string       `json:"supportedProtocolVersions,omitempty"`
	VerifiedAt                shared.Millis  `json:"verifiedAt,omitempty"`
	ImageSupport              map[string]any `json:"imageSupport,omitempty"`
	HostStyle                 string         `json:"hostStyle"`
	MCPProfile                map[string]any `json:"mcpProfile,omitempty"`
	// Extra holds the entry's other fields (host-config creation fields),
	// kept verbatim.
	Extra map[string]json.RawMessage `json:"-"`
}

type catalogHostFields CatalogHost

var catalogHostKnown = map[string]bool{
	"id": true, "label": true, "provenance": true, "rendersMcpApps": true,
	"supportedProtocolVersions": true, "verifiedAt": true, "imageSupport": true,
	"hostStyle": true, "mcpProfile": true,
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
		if !catalogHostKnown[k] {
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
		if !catalogHostKnown[k] {
			all[k] = v
		}
	}
	return json.Marshal(all)
}

// BuiltinTool is a native tool an agent harness runs inside its sandbox.
// Display-only: it cannot be called through the service.
type BuiltinTool struct {
	Key         string         `json:"key"`
	Name        string         `json:"name"`
	CommonName  string         `json:"commonName,omitempty"`
	ToolUseKind string         `json:"toolUseKind,omitempty"`
	Description string         `json:"description,omitempty"`
	InputSchema map[string]any `json:"inputSchema,omitempty"`
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

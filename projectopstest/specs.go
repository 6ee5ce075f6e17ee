package projectopstest

import (
	"fmt"
	"io"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/wire"
)

// The Spec types describe objects to add, both through the Add helpers and
// as entries of a Seed (their JSON form). Every ID is optional: when empty a
// deterministic id is generated ("org_1", "usr_2", "prj_1", "key_1",
// "srv_1", "hst_1", "cbx_1", "cs_1", "evs_1"); give one explicitly when
// other entries of a seed refer to it.

// OrganizationSpec describes an organization.
type OrganizationSpec struct {
	ID   string `json:"id,omitempty"`
	Name string `json:"name"`
	Plan string `json:"plan,omitempty"`
}

// UserSpec describes a user and their role in one organization.
type UserSpec struct {
	ID             string `json:"id,omitempty"`
	OrganizationID string `json:"organizationId"`
	// Role is RoleOwner, RoleAdmin, RoleMember or RoleGuest.
	Role Role `json:"role"`
	// Email defaults to "<id>@example.com".
	Email string `json:"email,omitempty"`
	// Name defaults to the id.
	Name string `json:"name,omitempty"`
}

// ProjectSpec describes a project and its explicit members.
type ProjectSpec struct {
	ID             string `json:"id,omitempty"`
	OrganizationID string `json:"organizationId"`
	Name           string `json:"name"`
	Description    string `json:"description,omitempty"`
	// Visibility is VisibilityPrivate (default) or VisibilityPublic.
	Visibility string       `json:"visibility,omitempty"`
	Icon       string       `json:"icon,omitempty"`
	Members    []MemberSpec `json:"members,omitempty"`
}

// MemberSpec gives a user a project role: RoleAdmin, RoleMember or RoleGuest.
type MemberSpec struct {
	UserID string `json:"userId"`
	Role   Role   `json:"role"`
}

// APIKeySpec describes an API key in a seed. The plaintext is part of the
// seed so that a standalone server is reproducible; it is hashed on load.
type APIKeySpec struct {
	ID     string `json:"id,omitempty"`
	UserID string `json:"userId"`
	Name   string `json:"name,omitempty"`
	// Secret is the key's plaintext; it must start with "sk_".
	Secret Secret `json:"secret"`
	// Revoked and Orphaned load the key already revoked, or with its
	// organization binding removed.
	Revoked  bool `json:"revoked,omitempty"`
	Orphaned bool `json:"orphaned,omitempty"`
}

// ServerSpec describes a saved MCP server: an HTTP or SSE endpoint (URL) or
// a stdio command. Command, Args, Env and Headers are stored but never
// returned by the API.
type ServerSpec struct {
	ID        string `json:"id,omitempty"`
	ProjectID string `json:"projectId"`
	Name      string `json:"name"`
	// TransportType is "http", "sse" or "stdio"; empty means "stdio" when
	// Command is set and "http" otherwise. "sse" connects over the legacy
	// SSE transport; the record is listed as "http", as the service lists
	// every server it reaches over HTTP.
	TransportType string            `json:"transportType,omitempty"`
	URL           string            `json:"url,omitempty"`
	Command       string            `json:"command,omitempty"`
	Args          []string          `json:"args,omitempty"`
	Env           map[string]Secret `json:"env,omitempty"`
	Headers       map[string]Secret `json:"headers,omitempty"`
	UseOAuth      bool              `json:"useOAuth,omitempty"`
	// ClientSecret is the OAuth client secret; when set the server reports
	// hasClientSecret.
	ClientSecret Secret   `json:"clientSecret,omitempty"`
	OAuthScopes  []string `json:"oauthScopes,omitempty"`
	// Disabled saves the server switched off (enabled false).
	Disabled bool `json:"disabled,omitempty"`

	// MCPServer, when set, is the real MCP server behind this record,
	// served in process over go-sdk's in-memory transports (Go tests and
	// the demo; a seed file cannot hold one). The record is listed as an
	// http server whose URL defaults to InProcessServerURL(Name).
	MCPServer *mcp.Server `json:"-"`
	// ProtocolVersion is the MCP protocol version offered first when
	// connecting, e.g. "2025-11-25" for servers on the TypeScript SDK;
	// empty offers go-sdk's latest.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// OAuthTokenURL is the token endpoint used to refresh imported OAuth
	// tokens when they expire. Without it an import's
	// authorizationServerUrl is the fallback (its RFC 8414 metadata names
	// the token endpoint), as the service's; without either imported
	// tokens are used until they expire, then calls answer OAUTH_REQUIRED.
	OAuthTokenURL string `json:"oauthTokenUrl,omitempty"`
}

// String describes the server without its secrets or command line.
func (sp ServerSpec) String() string {
	return fmt.Sprintf("ServerSpec{ID:%q Project:%q Name:%q Transport:%q URL:%q Env:%s Headers:%s}",
		sp.ID, sp.ProjectID, sp.Name, sp.TransportType, wire.RedactSecretQuery(sp.URL), secretKeys(sp.Env), secretKeys(sp.Headers))
}

// GoString is String, so %#v does not show the command line either.
func (sp ServerSpec) GoString() string { return sp.String() }

// HostSpec describes a host: exactly one of Template (with an optional
// Theme) or Config, as in POST /hosts.
type HostSpec struct {
	ID        string         `json:"id,omitempty"`
	ProjectID string         `json:"projectId"`
	Name      string         `json:"name"`
	Template  hosts.Template `json:"template,omitempty"`
	Theme     string         `json:"theme,omitempty"`
	Config    map[string]any `json:"config,omitempty"`
}

// ChatboxSpec describes a published chatbox. A chatbox publishes its host:
// HostStyle, ModelID, SystemPrompt, Temperature, RequireToolApproval and
// (when ServerIDs is nil) the attached servers left unset are the host's
// config as it is when the chatbox is read, so a change to the host shows.
type ChatboxSpec struct {
	ID          string `json:"id,omitempty"`
	ProjectID   string `json:"projectId"`
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Mode is "project_members" (default), "invited_only" or "anyone_with_link".
	Mode                string   `json:"mode,omitempty"`
	HostID              string   `json:"hostId,omitempty"`
	HostStyle           string   `json:"hostStyle,omitempty"`
	ServerIDs           []string `json:"serverIds,omitempty"`
	ModelID             string   `json:"modelId,omitempty"`
	SystemPrompt        string   `json:"systemPrompt,omitempty"`
	Temperature         *float64 `json:"temperature,omitempty"`
	RequireToolApproval bool     `json:"requireToolApproval,omitempty"`
}

// ChatSessionSpec describes a chat session: personal when OwnerUserID is
// set, otherwise shared with its project (ProjectID then required).
type ChatSessionSpec struct {
	ID          string `json:"id,omitempty"`
	ProjectID   string `json:"projectId,omitempty"`
	OwnerUserID string `json:"ownerUserId,omitempty"`
	Title       string `json:"title,omitempty"`
	// Status is "active" (default) or "archived".
	Status string `json:"status,omitempty"`
	// LastActivityAt and CreatedAt default to the server's clock.
	LastActivityAt time.Time `json:"lastActivityAt,omitzero"`
	CreatedAt      time.Time `json:"createdAt,omitzero"`
	Pinned         bool      `json:"pinned,omitempty"`
	Unread         bool      `json:"unread,omitempty"`
}

// EvalSuiteSpec describes an eval suite; HostID makes it reference a host.
//
// The authoring fields are optional. When any is set the spec must be valid
// as a POST eval-suites body (serverIds, a model every test resolves to, at
// least one test) and is applied as that route applies it: model, provider
// and passCriteria become the suite's defaults and the tests its cases, so
// the suite can be rerun by id at once.
type EvalSuiteSpec struct {
	ID        string   `json:"id,omitempty"`
	ProjectID string   `json:"projectId"`
	Name      string   `json:"name"`
	ServerIDs []string `json:"serverIds,omitempty"`
	HostID    string   `json:"hostId,omitempty"`

	Description  string              `json:"description,omitempty"`
	Model        string              `json:"model,omitempty"`
	Provider     string              `json:"provider,omitempty"`
	PassCriteria *evals.PassCriteria `json:"passCriteria,omitempty"`
	Tests        []evals.Test        `json:"tests,omitempty"`
}

// authored reports whether the spec carries test-authoring fields.
func (sp *EvalSuiteSpec) authored() bool {
	return sp.Description != "" || sp.Model != "" || sp.Provider != "" || sp.PassCriteria != nil || len(sp.Tests) > 0
}

// Workspace identifies the default (or seeded) workspace: an organization,
// its owner, a project and the owner's API key.
type Workspace struct {
	OrganizationID string
	UserID         string
	ProjectID      string
	APIKeyID       string
	// APIKey is the key's plaintext, for the Authorization header.
	APIKey string
}

// String describes the workspace without its key.
func (w Workspace) String() string {
	return fmt.Sprintf("Workspace{Org:%s User:%s Project:%s Key:%s %s}",
		w.OrganizationID, w.UserID, w.ProjectID, w.APIKeyID, redacted)
}

// GoString describes the workspace without its key.
func (w Workspace) GoString() string { return w.String() }

// Format makes every fmt verb print String, so no verb reveals the key.
func (w Workspace) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, w.String()) }

// Default returns the workspace every test can start from. Without WithSeed
// it is the one NewServer always creates (org_1, usr_1 as owner, prj_1,
// key_1 with a random secret); with a seed it is the seed's first
// organization, its first owner, that organization's first project and that
// owner's first usable key.
func (s *Server) Default() Workspace {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.def
}

package hosts

import "github.com/projectops/projectops-go/shared"

// ListParams pages the hosts listing.
type ListParams struct {
	// Cursor is a previous page's NextCursor.
	Cursor string
}

// Host is a host as listed: a named model-plus-capability profile.
type Host struct {
	ID   string `json:"id"`
	Name string `json:"name"`
	// HostConfigID is the content-addressed id of the host's config.
	HostConfigID string `json:"hostConfigId"`
	// ModelID is the resolved model, e.g. "anthropic/claude-haiku-4.5".
	ModelID string `json:"modelId"`
	// ServerCount is the number of MCP servers attached to the config.
	ServerCount int           `json:"serverCount"`
	CreatedAt   shared.Millis `json:"createdAt"`
	UpdatedAt   shared.Millis `json:"updatedAt"`
}

// HostDetail is a host with its resolved host config.
type HostDetail struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Config Config `json:"config"`
}

// Template is a built-in host template id.
type Template string

// The built-in templates: the 16 hosts of the service's catalog. (The
// 2026-07-09 OpenAPI enum lists only the first twelve; the service accepts
// goose, slack, cline and notion as well.)
const (
	TemplateMCPJam     Template = "mcpjam"
	TemplateClaude     Template = "claude"
	TemplateClaudeCode Template = "claude-code"
	TemplateChatGPT    Template = "chatgpt"
	TemplateMistral    Template = "mistral"
	TemplateCursor     Template = "cursor"
	TemplateCodex      Template = "codex"
	TemplateCopilot    Template = "copilot"
	TemplateVSCode     Template = "vscode"
	TemplateAgentCore  Template = "agentcore"
	TemplateN8N        Template = "n8n"
	TemplatePerplexity Template = "perplexity"
	TemplateGoose      Template = "goose"
	TemplateSlack      Template = "slack"
	TemplateCline      Template = "cline"
	TemplateNotion     Template = "notion"
)

// Templates lists every built-in template.
var Templates = []Template{
	TemplateMCPJam, TemplateClaude, TemplateClaudeCode, TemplateChatGPT, TemplateMistral,
	TemplateCursor, TemplateCodex, TemplateCopilot, TemplateVSCode, TemplateAgentCore,
	TemplateN8N, TemplatePerplexity, TemplateGoose, TemplateSlack, TemplateCline, TemplateNotion,
}

// Themes for template-seeded hosts.
const (
	ThemeLight = "light"
	ThemeDark  = "dark"
)

// CreateParams creates a host from exactly one of Template or Config.
type CreateParams struct {
	// Name is the display name (required).
	Name string `json:"name"`
	// Template seeds the config from the host catalog.
	Template Template `json:"template,omitempty"`
	// Theme is stamped into a template-seeded config: ThemeLight or ThemeDark.
	Theme string `json:"theme,omitempty"`
	// Config is a full host config, sent as written less its top-level
	// id and schemaVersion (see Config). A top-level key host config v2
	// does not define is refused with VALIDATION_ERROR. A config with a
	// harness needs a computer too (the harness runs inside it): one
	// without is refused with VALIDATION_ERROR, on update as well.
	Config Config `json:"config,omitzero"`
}

// UpdateParams edits a host; only non-zero fields change, and at least one
// must be set. Plain fields are enough here: the service has no "set to
// empty" for either (an empty name and an empty config are refused with
// VALIDATION_ERROR), so an empty field can only mean "leave unchanged".
type UpdateParams struct {
	// Name, when set, renames the host (trimmed; blank is refused).
	Name string `json:"name,omitempty"`
	// Config, when set, replaces the host's config as a whole: the service
	// validates and stores it as on create and merges nothing from the
	// stored one. A partial config is refused with 400 VALIDATION_ERROR
	// (one without a temperature with the service's own "hostConfigV2:
	// temperature must be finite"), and one without the modelId of a host
	// that pins a model is refused too. To change some fields, read the
	// host, change them in its Config (Map, then NewConfig) and send the
	// whole config back, as ExampleService_Update_config does: its id and
	// schemaVersion are left out (see Config).
	Config Config `json:"config,omitzero"`
}

// DeleteParams controls DELETE.
type DeleteParams struct {
	// Force deletes a host that is still referenced by an eval suite or a
	// chatbox; without it such a delete fails with 400 VALIDATION_ERROR.
	// The specification documents force; the service's current public
	// source refuses any field in a delete body, force included (400), so
	// a delete with Force may fail there until the service catches up.
	Force bool `json:"force,omitempty"`
}

// Deleted confirms a deletion.
type Deleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

package mcpops

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/servers"
)

// ServerFields are the fields the service's schema for every server
// operation's body (projectServerSchema, server/routes/web/auth.ts)
// declares beside the operation's own. The double checks them by that
// schema's rules, so that a body the service refuses is refused here too,
// and uses only serverName (the doctor's label); the rest steer the
// service's hosted connection (its pins, access scopes and share links),
// which the double does not model. Each is kept as sent: absent is nil,
// and null is refused, as the schema's optional fields refuse it.
type ServerFields struct {
	ServerName                json.RawMessage `json:"serverName"`
	ClientCapabilities        json.RawMessage `json:"clientCapabilities"`
	OAuthAccessToken          json.RawMessage `json:"oauthAccessToken"`
	AccessScope               json.RawMessage `json:"accessScope"`
	ScenarioID                json.RawMessage `json:"scenarioId"`
	AccessVersion             json.RawMessage `json:"accessVersion"`
	ClientInfo                json.RawMessage `json:"clientInfo"`
	SupportedProtocolVersions json.RawMessage `json:"supportedProtocolVersions"`
	MCPProtocolVersion        json.RawMessage `json:"mcpProtocolVersion"`
	MirrorToolParamHeaders    json.RawMessage `json:"mirrorToolParamHeaders"`
	FirstPageOnly             json.RawMessage `json:"firstPageOnly"`
	SupportsMrtr              json.RawMessage `json:"supportsMrtr"`
	// XaaPolicy is checked only by the operations the service runs on an
	// ephemeral connection (see checkXaaPolicy), not by this type's Validate
	// (which every operation runs, doctor and check-oauth included).
	XaaPolicy json.RawMessage `json:"xaaPolicy"`
}

// OnlyFirstPage reports whether the body asks for the first page of a
// listing only (firstPageOnly true): the service's client then reads a
// cursorless listing's first page and stops.
func (f *ServerFields) OnlyFirstPage() bool {
	return bytes.Equal(bytes.TrimSpace(f.FirstPageOnly), []byte("true"))
}

// mcpProtocolVersions are the versions the service's schema accepts as
// mcpProtocolVersion.
var mcpProtocolVersions = []string{"2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}

// accessScopes are the access scopes the service's schema accepts.
var accessScopes = []string{"project_member", "chat_v2"}

// Validate checks the fields the body has by the service's rules; the
// error names the first bad field (never its value: oauthAccessToken is a
// credential).
func (f *ServerFields) Validate() *edge.Error {
	for _, c := range []struct {
		field string
		raw   json.RawMessage
		ok    func(json.RawMessage) bool
		want  string
	}{
		{"serverName", f.ServerName, nonEmptyString, "a non-empty string"},
		{"clientCapabilities", f.ClientCapabilities, isObject, "an object"},
		{"oauthAccessToken", f.OAuthAccessToken, isString, "a string"},
		{"accessScope", f.AccessScope, oneOf(accessScopes), "project_member or chat_v2"},
		{"scenarioId", f.ScenarioID, nonEmptyString, "a non-empty string"},
		{"accessVersion", f.AccessVersion, nonNegativeInt, "a non-negative integer"},
		{"mcpProtocolVersion", f.MCPProtocolVersion, oneOf(mcpProtocolVersions), "a known MCP protocol version (" + strings.Join(mcpProtocolVersions, ", ") + ")"},
		{"mirrorToolParamHeaders", f.MirrorToolParamHeaders, isBool, "a boolean"},
		{"firstPageOnly", f.FirstPageOnly, isBool, "a boolean"},
		{"supportsMrtr", f.SupportsMrtr, isBool, "a boolean"},
	} {
		if c.raw != nil && !c.ok(c.raw) {
			return edge.Validation(c.field, c.field+" must be "+c.want)
		}
	}
	if f.ClientInfo != nil {
		var info map[string]json.RawMessage
		if !isObject(f.ClientInfo) || json.Unmarshal(f.ClientInfo, &info) != nil {
			return edge.Validation("clientInfo", "clientInfo must be an object")
		}
		for _, k := range []string{"name", "version"} {
			if v, ok := info[k]; ok && !nonEmptyString(v) {
				return edge.Validation("clientInfo."+k, "clientInfo."+k+" must be a non-empty string")
			}
		}
	}
	if f.SupportedProtocolVersions != nil {
		var vs []json.RawMessage
		if bytes.Equal(f.SupportedProtocolVersions, []byte("null")) || json.Unmarshal(f.SupportedProtocolVersions, &vs) != nil {
			return edge.Validation("supportedProtocolVersions", "supportedProtocolVersions must be an array of non-empty strings")
		}
		for i, v := range vs {
			if !nonEmptyString(v) {
				field := "supportedProtocolVersions[" + strconv.Itoa(i) + "]"
				return edge.Validation(field, field+" must be a non-empty string")
			}
		}
	}
	return nil
}

// Label is the name a report gives the server: the body's serverName,
// else id.
func (f *ServerFields) Label(id string) string {
	var name string
	if json.Unmarshal(f.ServerName, &name) == nil && name != "" {
		return name
	}
	return id
}

func isString(raw json.RawMessage) bool {
	var s string
	return !bytes.Equal(raw, []byte("null")) && json.Unmarshal(raw, &s) == nil
}

func nonEmptyString(raw json.RawMessage) bool {
	var s string
	return json.Unmarshal(raw, &s) == nil && s != ""
}

func isBool(raw json.RawMessage) bool {
	var b bool
	return !bytes.Equal(raw, []byte("null")) && json.Unmarshal(raw, &b) == nil
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return !bytes.Equal(raw, []byte("null")) && json.Unmarshal(raw, &m) == nil
}

// nonNegativeInt is zod's int().nonnegative(): a safe integer, 2.0 and 1e3
// included (JavaScript reads them as integers).
func nonNegativeInt(raw json.RawMessage) bool {
	var n float64
	return !bytes.Equal(raw, []byte("null")) && json.Unmarshal(raw, &n) == nil &&
		n >= 0 && n == math.Trunc(n) && n <= 1<<53-1
}

func oneOf(values []string) func(json.RawMessage) bool {
	return func(raw json.RawMessage) bool {
		var s string
		return json.Unmarshal(raw, &s) == nil && slices.Contains(values, s)
	}
}

// The bodies of the server operations: each operation's own fields (none
// for validate, doctor, check-oauth and export) and ServerFields. The
// operations the service runs on an ephemeral connection (all but doctor
// and check-oauth) also check xaaPolicy, after the schema's fields.
type (
	// ServerBody is the body of doctor and check-oauth.
	ServerBody struct{ ServerFields }
	// ConnBody is the body of validate and export.
	ConnBody struct{ ServerFields }
	// ListBody is the body of the prompts and resources listings.
	ListBody struct {
		servers.ListParams
		ServerFields
	}
	// ToolsListBody is the tools listing's body, which the service's
	// schema gives a modelId besides (toolsListSchema; unused here).
	ToolsListBody struct {
		ListBody
		ModelID json.RawMessage `json:"modelId"`
	}
	// GetPromptBody is prompts/get's body.
	GetPromptBody struct {
		servers.GetPromptParams
		ServerFields
	}
	// ReadResourceBody is resources/read's body.
	ReadResourceBody struct {
		servers.ReadResourceParams
		ServerFields
	}
)

// Validate checks the common fields and xaaPolicy.
func (b *ConnBody) Validate() *edge.Error { return b.ServerFields.validateConn() }

// Validate checks the common fields and xaaPolicy.
func (b *ListBody) Validate() *edge.Error { return b.ServerFields.validateConn() }

// Validate checks modelId (an optional string), then the common fields
// and xaaPolicy.
func (b *ToolsListBody) Validate() *edge.Error {
	if herr := b.ServerFields.Validate(); herr != nil {
		return herr
	}
	if b.ModelID != nil && !isString(b.ModelID) {
		return edge.Validation("modelId", "modelId must be a string")
	}
	return b.ServerFields.checkXaaPolicy()
}

// Validate checks the common fields and xaaPolicy.
func (b *GetPromptBody) Validate() *edge.Error { return b.ServerFields.validateConn() }

// Validate checks the common fields and xaaPolicy.
func (b *ReadResourceBody) Validate() *edge.Error { return b.ServerFields.validateConn() }

// validateConn is Validate and then checkXaaPolicy, the order of the
// service's schema parse and its policy gate.
func (f *ServerFields) validateConn() *edge.Error {
	if herr := f.Validate(); herr != nil {
		return herr
	}
	return f.checkXaaPolicy()
}

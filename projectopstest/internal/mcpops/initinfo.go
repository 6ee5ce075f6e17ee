package mcpops

import (
	"encoding/json"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// initInfo is the service's initialization info of a session (its client
// manager's summary, not the MCP initialize result): the server's parts as
// it sent them, a part it did not send left out.
type initInfo struct {
	ProtocolVersion    string          `json:"protocolVersion,omitempty"`
	Transport          string          `json:"transport"`
	ServerCapabilities json.RawMessage `json:"serverCapabilities,omitempty"`
	ServerVersion      json.RawMessage `json:"serverVersion,omitempty"`
	Instructions       json.RawMessage `json:"instructions,omitempty"`
	ClientCapabilities json.RawMessage `json:"clientCapabilities"`
}

// initTransport is the transport name the service reports for t. The
// service reaches a server over HTTP, SSE or stdio; an in-process server
// stands in for a remote one, which it reaches over streamable HTTP.
func initTransport(t string) string {
	switch t {
	case mcpconn.TransportSSE:
		return servers.InitTransportSSE
	case mcpconn.TransportStdio:
		return servers.InitTransportStdio
	default:
		return servers.InitTransportStreamableHTTP
	}
}

// initAsSent is c's initialization info and its server's capabilities,
// each part as the server sent it, else as go-sdk holds it (when the
// initialize result could not be captured). The transport is the one c
// connected over (an http server's SSE fallback), else the saved one.
func initAsSent(c *mcpconn.Conn, transport string) (init, caps json.RawMessage) {
	if ct := c.Transport(); ct != "" {
		transport = ct
	}
	ir := c.Session.InitializeResult()
	info := initInfo{Transport: initTransport(transport), ClientCapabilities: mcpconn.ClientCapabilitiesJSON()}
	var sent struct {
		Capabilities json.RawMessage `json:"capabilities"`
		ServerInfo   json.RawMessage `json:"serverInfo"`
		Instructions json.RawMessage `json:"instructions"`
	}
	if c.InitRaw == nil || json.Unmarshal(c.InitRaw, &sent) != nil {
		if ir != nil && ir.ServerInfo != nil {
			sent.ServerInfo = verbatim(nil, ir.ServerInfo)
		}
		if ir != nil && ir.Instructions != "" {
			sent.Instructions = verbatim(nil, ir.Instructions)
		}
	}
	if sent.Capabilities == nil {
		sent.Capabilities = verbatim(nil, capsOf(c))
	}
	if ir != nil {
		info.ProtocolVersion = ir.ProtocolVersion // negotiated, as go-sdk settled it
	}
	info.ServerCapabilities, info.ServerVersion, info.Instructions = sent.Capabilities, sent.ServerInfo, sent.Instructions
	return verbatim(nil, info), sent.Capabilities
}

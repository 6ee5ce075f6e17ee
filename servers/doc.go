// Package servers operates the MCP servers saved in a project: listing
// them, diagnostics (Validate, Doctor, CheckOAuth), primitives (tools,
// prompts, resources: AllTools and ListTools, and so on, an iterator and
// single pages with the cursor in the body; the service answers a listing
// without a cursor with every page in one), execution (CallTool, GetPrompt, ReadResource),
// export snapshots for CI (Export, compared with Diff) and OAuth token
// import (ImportTokens). Use it through projectops.Client.Servers.
//
// The API has no route to save, update or delete a server: servers are
// saved in the hosted product, not through the API, and a tunnel
// registers one (tunnels.Service.Create). In tests, projectopstest's
// Server.AddServer stands in for saving one.
//
// MCP payloads are the go-sdk types (github.com/modelcontextprotocol/go-sdk/mcp):
// *mcp.Tool, *mcp.Prompt, *mcp.Resource, *mcp.CallToolResult,
// *mcp.GetPromptResult and *mcp.ReadResourceResult. They model the fields
// go-sdk knows (a newer revision's or a vendor's are dropped, and so is a
// content block of a type go-sdk cannot read, or the prompt message that
// holds one, rather than failing a call that has run) and decode
// numbers they hold as any (StructuredContent, schemas) into float64, so
// an id past 2^53 comes back rounded: for the body as the server answered
// it, pass option.WithResponseInto and read Response.Body (Export keeps it
// in ExportSnapshot.Raw).
//
// Errors are *projectops.Error values: SERVER_UNREACHABLE (502) when the
// service could not connect to the MCP server, TIMEOUT (504) when it
// connected but got no answer in time, INTERNAL_ERROR (500) with the MCP
// server's message when it answered a JSON-RPC error (a prompt or tool
// handler that failed; as a read, GetPrompt is retried on it unless
// option.WithMaxRetries(0)), FEATURE_NOT_SUPPORTED (422) when the
// server lacks the capability (no prompts, say), OAUTH_REQUIRED (401) when
// the server needs an OAuth grant (import tokens once; refused before
// connecting, its Details name the server: oauthRequired, serverId,
// serverName, serverUrl, the last as saved, so a tunnel's ?k= secret and
// all: never log Details; a stdio server has no URL, so no serverUrl).
// A tool that reports
// a failure is not an error: CallTool returns the result with IsError set.
//
// Retries follow each operation's nature: listings, Validate, Doctor,
// CheckOAuth, Export, GetPrompt and ReadResource are reads (retried on
// network errors, 429 and 5xx but 501 and 505); CallTool is a non-idempotent
// write, never re-sent once it may have reached the service; ImportTokens
// is idempotent and retried like a read.
package servers

package servers

import "github.com/modelcontextprotocol/go-sdk/mcp"

func toolKey(t *mcp.Tool) string {
	if t == nil {
		return ""
	}
	return t.Name
}

func resourceKey(r *mcp.Resource) string {
	if r == nil {
		return ""
	}
	return r.URI
}

func promptKey(p *mcp.Prompt) string {
	if p == nil {
		return ""
	}
	return p.Name
}

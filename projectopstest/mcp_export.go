package projectopstest

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// exportServer lists tools, resources and prompts in one snapshot. A
// capability the server lacks exports as an empty list (never 422).
func (s *Server) exportServer(w http.ResponseWriter, r *http.Request, a actor) *httpError {
	sc, herr := s.begin(r, a, accessRead, nil)
	if herr != nil {
		return herr
	}
	snap := servers.ExportSnapshot{ServerID: sc.serverID,
		Tools: []*mcp.Tool{}, Resources: []*mcp.Resource{}, Prompts: []*mcp.Prompt{}}
	herr = sc.run(r.Context(), true, func(ctx context.Context, c *mcpconn.Conn) error {
		caps := capsOf(c)
		var err error
		if hasTools(caps) {
			if snap.Tools, err = listAll(ctx, c.Session, listToolsPage); err != nil {
				return err
			}
		}
		if hasResources(caps) {
			if snap.Resources, err = listAll(ctx, c.Session, listResourcesPage); err != nil {
				return err
			}
		}
		if hasPrompts(caps) {
			if snap.Prompts, err = listAll(ctx, c.Session, listPromptsPage); err != nil {
				return err
			}
		}
		return nil
	})
	if herr != nil {
		return herr
	}
	snap.ExportedAt = s.now().UTC()
	writeJSON(w, http.StatusOK, snap)
	return nil
}

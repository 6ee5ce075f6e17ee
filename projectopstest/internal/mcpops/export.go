package mcpops

import (
	"context"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/projectopstest/internal/mcpconn"
	"github.com/projectops/projectops-go/servers"
)

// Export lists tools, resources and prompts in one snapshot. A
// capability the server lacks exports as an empty list (never 422).
func Export(ctx context.Context, sc *Call) (servers.ExportSnapshot, *edge.Error) {
	if herr := sc.Authorize(); herr != nil {
		return servers.ExportSnapshot{}, herr
	}
	snap := servers.ExportSnapshot{ServerID: sc.ServerID,
		Tools: []*mcp.Tool{}, Resources: []*mcp.Resource{}, Prompts: []*mcp.Prompt{}}
	herr := sc.Run(ctx, true, func(ctx context.Context, conn *mcpconn.Conn) error {
		caps := capsOf(conn)
		var err error
		if hasTools(caps) {
			if snap.Tools, err = listAll(ctx, conn.Session, listToolsPage); err != nil {
				return err
			}
		}
		if hasResources(caps) {
			if snap.Resources, err = listAll(ctx, conn.Session, listResourcesPage); err != nil {
				return err
			}
		}
		if hasPrompts(caps) {
			if snap.Prompts, err = listAll(ctx, conn.Session, listPromptsPage); err != nil {
				return err
			}
		}
		return nil
	})
	if herr != nil {
		return servers.ExportSnapshot{}, herr
	}
	snap.ExportedAt = sc.l.cfg.Now().UTC()
	return snap, nil
}

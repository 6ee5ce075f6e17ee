package projectopstest

import (
	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/projectopstest/internal/views"
)

// Chatboxes are read-only over the API; they are created with AddChatbox
// or a seed.
func chatboxRoutes(s *Server, rt *router) {
	rt.handle("GET /projects/{projectId}/chatboxes", route(s, op[none, pager.Page[views.Chatbox]]{need: accessRead, apply: listChatboxes}))
	rt.handle("GET /projects/{projectId}/chatboxes/{chatboxId}", route(s, op[none, views.ChatboxDetail]{ownAccess: true, apply: getChatbox}))
}

func listChatboxes(c *call, _ *none) (pager.Page[views.Chatbox], *edge.Error) {
	page := pager.Page[views.Chatbox]{Items: []views.Chatbox{}}
	for _, cb := range sortedByOrd(c.s.st.chatbox, func(v *chatboxRec) int { return v.ord },
		func(v *chatboxRec) bool { return v.projectID == c.project.id }) {
		page.Items = append(page.Items, views.ChatboxOf(c.s.st.chatboxView(cb)))
	}
	return page, nil
}

// getChatbox answers as the service's route does: it looks the chatbox up
// by its id alone and answers 404 when it is not the path's project's (as
// the specification says of a chatbox of another project), whatever the
// caller's access to the path's project: never that project's 403. Only
// then does the caller's access to the chatbox's project count.
func getChatbox(c *call, _ *none) (views.ChatboxDetail, *edge.Error) {
	cb := c.s.st.chatbox[c.path("chatboxId")]
	if cb == nil || cb.projectID != c.path("projectId") {
		return views.ChatboxDetail{}, notFoundIn("Chatbox")
	}
	if _, _, herr := c.s.st.projectFor(c.a, cb.projectID, accessRead); herr != nil {
		return views.ChatboxDetail{}, herr
	}
	return views.ChatboxDetailOf(c.s.st.chatboxDetailView(cb)), nil
}

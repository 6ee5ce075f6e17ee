package projectopstest

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/internal/pager"
	"github.com/projectops/projectops-go/projectopstest/internal/views"
)

// Chat-session paging bounds of the real service.
const (
	chatSessionsDefaultLimit = 50
	chatSessionsMaxLimit     = 200
	chatSessionsCursorKind   = "chat-sessions"
)

// sessionPos is a keyset position in the newest-activity-first order:
// stable while sessions are added, unlike an offset.
type sessionPos struct {
	at  int64 // lastActivityAt, ms
	ord int
}

func (p sessionPos) before(q sessionPos) bool { // p sorts after q (older)
	return p.at < q.at || (p.at == q.at && p.ord < q.ord)
}

// listChatSessions merges the caller's personal sessions with the
// project-shared sessions of every project the caller can access, inside
// the key's organization, newest activity first.
func listChatSessions(c *call, _ *none) (pager.Page[views.Session], *edge.Error) {
	s, a := c.s, c.a
	page := pager.Page[views.Session]{Items: []views.Session{}}
	q := edge.QueryOf(c.r)
	status := q.Get("status")
	if status == "" {
		status = catalog.ChatSessionActive
	}
	if status != catalog.ChatSessionActive && status != catalog.ChatSessionArchived {
		return page, edge.Validation("status", "status must be active or archived")
	}
	limit, herr := edge.ParseLimit(q.Get("limit"), "limit", chatSessionsDefaultLimit, chatSessionsMaxLimit)
	if herr != nil {
		return page, herr
	}
	after, herr := sessionCursorParam(q)
	if herr != nil {
		return page, herr
	}
	projectID := q.Get("projectId")

	if projectID != "" {
		if _, _, herr := s.st.projectFor(a, projectID, accessRead); herr != nil {
			return page, herr
		}
	}
	u := s.st.users[a.userID]
	var visible []*chatSessionRec
	for _, cs := range s.st.sessions {
		if cs.status != status || cs.orgID != a.orgID || (projectID != "" && cs.projectID != projectID) {
			continue
		}
		personal := cs.ownerID != ""
		if (personal && cs.ownerID == a.userID) ||
			(!personal && roleIn(u, s.st.projects[cs.projectID]) != "") {
			visible = append(visible, cs)
		}
	}
	slices.SortFunc(visible, func(x, y *chatSessionRec) int {
		return -cmp.Or(cmp.Compare(x.lastActivityAt.UnixMilli(), y.lastActivityAt.UnixMilli()), cmp.Compare(x.ord, y.ord))
	})
	var last sessionPos
	more := false
	for _, cs := range visible {
		pos := sessionPos{at: cs.lastActivityAt.UnixMilli(), ord: cs.ord}
		if after != nil && !pos.before(*after) {
			continue
		}
		if len(page.Items) == limit {
			more = true
			break
		}
		page.Items = append(page.Items, sessionView(cs))
		last = pos
	}
	if more {
		page.NextCursor = edge.EncodeCursor(chatSessionsCursorKind, strconv.FormatInt(last.at, 10)+"."+strconv.Itoa(last.ord))
	}
	return page, nil
}

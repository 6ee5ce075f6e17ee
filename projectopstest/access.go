package projectopstest

import (
	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/shared"
)

// actor is the caller behind a valid API key: the key's creator acting
// inside the key's organization. Public routes see the zero actor.
type actor struct {
	keyID, userID, orgID string
}

// roleIn resolves u's role on p: organization owners and admins are project
// admins everywhere in their organization; otherwise the explicit membership
// counts, and a public project admits organization members as members.
// "" means no access.
func roleIn(u *userRec, p *projectRec) Role {
	if u == nil || p == nil || u.orgID != p.orgID {
		return ""
	}
	switch u.role {
	case RoleOwner, RoleAdmin:
		return RoleAdmin
	case RoleGuest:
		return ""
	}
	if r, ok := p.members[u.id]; ok {
		return r
	}
	if p.visibility == VisibilityPublic {
		return RoleMember
	}
	return ""
}

// access is what a route needs on a project.
type access int

const (
	accessRead  access = iota // any project role, guests included
	accessWrite               // member or admin: project guests are denied writes
	accessAdmin               // project admin only
)

// projectFor resolves projectID for a: a project that does not exist or lives
// in another organization reads as 404 NOT_FOUND (a key never reaches another
// organization); a project of the key's organization the caller cannot access
// is 403 FORBIDDEN, as is a role below need. Call with Server.mu held.
func (st *state) projectFor(a actor, projectID string, need access) (*projectRec, Role, *edge.Error) {
	p := st.projects[projectID]
	if p == nil || p.orgID != a.orgID {
		return nil, "", edge.NotFound("Project not found")
	}
	role := roleIn(st.users[a.userID], p)
	if role == "" {
		return nil, "", edge.Forbidden("You do not have access to this project")
	}
	switch {
	case need == accessWrite && role == RoleGuest:
		return nil, "", edge.Forbidden("Guests cannot modify this project")
	case need == accessAdmin && role != RoleAdmin:
		return nil, "", edge.Forbidden("This operation requires project admin")
	}
	return p, role, nil
}

// notFoundIn reports a resource of another project (or none at all) the
// same way: 404 NOT_FOUND, so ids never leak across projects.
func notFoundIn(kind string) *edge.Error {
	return edge.NewError(shared.CodeNotFound, kind+" not found", nil)
}

package projectopstest

import (
	"errors"
	"fmt"
	"strings"
)

// The Add helpers seed the store directly, bypassing the API (which cannot
// create most of these objects). They return the new object's id, or an
// error naming the bad field or reference. Every such error starts
// "projectopstest: "; one for an unknown reference (project, user, key,
// ...) matches projectops.ErrNotFound with errors.Is.

// AddOrganization adds an organization.
func (s *Server) AddOrganization(spec OrganizationSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.st.addOrg(spec)
	return id, helperError(err)
}

// AddUser adds a user with a role in an existing organization.
func (s *Server) AddUser(spec UserSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.st.addUser(spec)
	return id, helperError(err)
}

// AddProject adds a project (and its members) to an organization.
func (s *Server) AddProject(spec ProjectSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.st.addProject(spec)
	return id, helperError(err)
}

// AddMember gives a user of the project's organization a project role,
// replacing any role they had.
func (s *Server) AddMember(projectID, userID string, role Role) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return helperError(s.st.addMember(projectID, MemberSpec{UserID: userID, Role: role}))
}

// AddAPIKey creates an API key for a user, bound to the user's
// organization. The secret is returned once and only its hash is kept.
func (s *Server) AddAPIKey(userID, name string) (secret, keyID string, err error) {
	secret = newKeySecret()
	s.mu.Lock()
	defer s.mu.Unlock()
	keyID, err = s.st.addKey(APIKeySpec{UserID: userID, Name: name, Secret: Secret(secret)})
	if err != nil {
		return "", "", helperError(err)
	}
	return secret, keyID, nil
}

// RevokeAPIKey revokes a key; requests with it fail with 401 at once.
func (s *Server) RevokeAPIKey(keyID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.st.keys[keyID]
	if k == nil {
		return helperError(notFound("API key %q not found", keyID))
	}
	k.revoked = true
	return nil
}

// OrphanAPIKey removes a key's organization binding; requests with it fail
// with 401 UNAUTHORIZED and details.reason ORPHANED_KEY.
func (s *Server) OrphanAPIKey(keyID string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := s.st.keys[keyID]
	if k == nil {
		return helperError(notFound("API key %q not found", keyID))
	}
	k.orgID = ""
	return nil
}

func (st *state) addOrg(spec OrganizationSpec) (string, error) {
	if strings.TrimSpace(spec.Name) == "" {
		return "", errors.New("organization: name is required")
	}
	id, err := st.newID("org", spec.ID)
	if err != nil {
		return "", fmt.Errorf("organization: %w", err)
	}
	st.orgs[id] = &orgRec{id: id, name: spec.Name, plan: spec.Plan, createdAt: st.now(), ord: st.nextOrd()}
	return id, nil
}

func (st *state) addUser(spec UserSpec) (string, error) {
	if st.orgs[spec.OrganizationID] == nil {
		return "", notFound("user: organization %q not found", spec.OrganizationID)
	}
	if !validOrgRole(spec.Role) {
		return "", fmt.Errorf("user: role %q is not one of owner, admin, member, guest", spec.Role)
	}
	id, err := st.newID("usr", spec.ID)
	if err != nil {
		return "", fmt.Errorf("user: %w", err)
	}
	u := &userRec{id: id, orgID: spec.OrganizationID, role: spec.Role, email: spec.Email, name: spec.Name,
		createdAt: st.now(), ord: st.nextOrd()}
	u.updatedAt = u.createdAt
	if u.email == "" {
		u.email = id + "@example.com"
	}
	if u.name == "" {
		u.name = id
	}
	st.users[id] = u
	return id, nil
}

func (st *state) addProject(spec ProjectSpec) (string, error) {
	if st.orgs[spec.OrganizationID] == nil {
		return "", notFound("project: organization %q not found", spec.OrganizationID)
	}
	if strings.TrimSpace(spec.Name) == "" {
		return "", errors.New("project: name is required")
	}
	vis := spec.Visibility
	if vis == "" {
		vis = VisibilityPrivate
	}
	if vis != VisibilityPrivate && vis != VisibilityPublic {
		return "", fmt.Errorf("project: visibility %q is not private or public", spec.Visibility)
	}
	for i, m := range spec.Members {
		if err := st.checkMember(spec.OrganizationID, m); err != nil {
			return "", fmt.Errorf("project: members[%d]: %w", i, err)
		}
	}
	id, err := st.newID("prj", spec.ID)
	if err != nil {
		return "", fmt.Errorf("project: %w", err)
	}
	now := st.now()
	p := &projectRec{id: id, orgID: spec.OrganizationID, name: spec.Name, description: spec.Description,
		visibility: vis, icon: spec.Icon, members: map[string]Role{},
		createdAt: now, updatedAt: now, ord: st.nextOrd()}
	for _, m := range spec.Members {
		p.members[m.UserID] = m.Role
	}
	st.projects[id] = p
	return id, nil
}

func (st *state) checkMember(orgID string, m MemberSpec) error {
	u := st.users[m.UserID]
	if u == nil {
		return notFound("user %q not found", m.UserID)
	}
	if u.orgID != orgID {
		return fmt.Errorf("user %q is not in organization %q", m.UserID, orgID)
	}
	if !validProjectRole(m.Role) {
		return fmt.Errorf("role %q is not one of admin, member, guest", m.Role)
	}
	return nil
}

func (st *state) addMember(projectID string, m MemberSpec) error {
	p := st.projects[projectID]
	if p == nil {
		return notFound("project %q not found", projectID)
	}
	if err := st.checkMember(p.orgID, m); err != nil {
		return err
	}
	p.members[m.UserID] = m.Role
	return nil
}

func (st *state) addKey(spec APIKeySpec) (string, error) {
	u := st.users[spec.UserID]
	if u == nil {
		return "", notFound("API key: user %q not found", spec.UserID)
	}
	secret := string(spec.Secret)
	if !strings.HasPrefix(secret, keyPrefix) || len(secret) <= len(keyPrefix) {
		return "", errors.New("API key: secret must start with sk_")
	}
	if st.findKey(secret) != nil {
		return "", errors.New("API key: secret is already in use")
	}
	id, err := st.newID("key", spec.ID)
	if err != nil {
		return "", fmt.Errorf("API key: %w", err)
	}
	k := &apiKeyRec{id: id, name: spec.Name, userID: u.id, orgID: u.orgID, hash: hashKey(secret),
		revoked: spec.Revoked, createdAt: st.now(), ord: st.nextOrd()}
	if spec.Orphaned {
		k.orgID = ""
	}
	if k.name == "" {
		k.name = id
	}
	st.keys[id] = k
	st.keyHashes[k.hash] = true
	st.keyLens.add(strings.TrimPrefix(secret, keyPrefix))
	return id, nil
}

package projectopstest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/projectops/projectops-go/internal/jsonerr"
)

// Seed is the complete initial state of a server, for WithSeed and for
// `projectops serve --seed FILE`. Its JSON form is an object with these
// arrays, each optional (unknown fields are rejected):
//
//   - organizations: OrganizationSpec — {id?, name, plan?}
//   - users: UserSpec — {id?, organizationId, role: owner|admin|member|guest,
//     email?, name?}
//   - projects: ProjectSpec — {id?, organizationId, name, description?,
//     visibility?: private|public, icon?, members?: [{userId, role:
//     admin|member|guest}]}
//   - apiKeys: APIKeySpec — {id?, userId, name?, secret: "sk_...",
//     revoked?, orphaned?}; the plaintext is hashed on load
//   - servers: ServerSpec — {id?, projectId, name, transportType?:
//     http|sse|stdio, url? (http/sse), command?, args?, env? (stdio),
//     headers?, useOAuth?, clientSecret?, oauthScopes?, disabled?}
//   - hosts: HostSpec — {id?, projectId, name, template? (+ theme?:
//     light|dark) or config}
//   - chatboxes: ChatboxSpec — {id?, projectId, name, description?, mode?,
//     hostId?, hostStyle?, serverIds?, modelId?, systemPrompt?,
//     temperature?, requireToolApproval?}
//   - chatSessions: ChatSessionSpec — {id?, projectId?, ownerUserId?,
//     title?, status?: active|archived, lastActivityAt?, createdAt?
//     (RFC 3339), pinned?, unread?}
//   - evalSuites: EvalSuiteSpec — {id?, projectId, name, serverIds?,
//     hostId?, description?, model?, provider?, passCriteria?, tests?}
//   - environments: EnvironmentSpec — {id?, projectId, ownerUserId, name,
//     dockerfile, shared?, built?}
//
// Entries are created in that order, so an entry may refer to any entry of
// an earlier array by id; give ids to entries that are referred to. See
// testdata/seed.json for an example.
type Seed struct {
	Organizations []OrganizationSpec `json:"organizations,omitempty"`
	Users         []UserSpec         `json:"users,omitempty"`
	Projects      []ProjectSpec      `json:"projects,omitempty"`
	APIKeys       []APIKeySpec       `json:"apiKeys,omitempty"`
	Servers       []ServerSpec       `json:"servers,omitempty"`
	Hosts         []HostSpec         `json:"hosts,omitempty"`
	Chatboxes     []ChatboxSpec      `json:"chatboxes,omitempty"`
	ChatSessions  []ChatSessionSpec  `json:"chatSessions,omitempty"`
	EvalSuites    []EvalSuiteSpec    `json:"evalSuites,omitempty"`
	// Environments are computer environments (add_environments.go).
	Environments []EnvironmentSpec `json:"environments,omitempty"`
}

// LoadSeed reads a seed file. Unknown fields and malformed JSON are errors;
// references between entries are checked when the seed is applied
// (NewServer with WithSeed), with errors naming the entry.
func LoadSeed(path string) (*Seed, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("projectopstest: read seed: %w", err)
	}
	return ParseSeed(b)
}

// ParseSeed decodes a seed from JSON, rejecting unknown fields.
func ParseSeed(data []byte) (*Seed, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var s Seed
	if err := dec.Decode(&s); err != nil {
		return nil, fmt.Errorf("projectopstest: parse seed: %w", jsonerr.Describe(data, err))
	}
	if _, err := dec.Token(); err != io.EOF { // More misses a stray } or ]
		return nil, errors.New("projectopstest: parse seed: trailing data after the seed object")
	}
	// A suite's passCriteria without minimumPassRate sets no threshold (the
	// service's 100), as the suite routes read it; decoded it holds 0.
	var rates struct {
		EvalSuites []struct {
			PassCriteria *struct {
				MinimumPassRate *float64 `json:"minimumPassRate"`
			} `json:"passCriteria"`
		} `json:"evalSuites"`
	}
	if json.Unmarshal(data, &rates) == nil && len(rates.EvalSuites) == len(s.EvalSuites) {
		for i, r := range rates.EvalSuites {
			if r.PassCriteria == nil || r.PassCriteria.MinimumPassRate == nil {
				s.EvalSuites[i].PassCriteria = nil
			}
		}
	}
	return &s, nil
}

// applySeed creates every entry of seed, then derives Default from it.
func (s *Server) applySeed(seed *Seed) error {
	// Template configs may consult the live catalog: resolve them unlocked.
	cfgs := make([]map[string]any, len(seed.Hosts))
	for i, h := range seed.Hosts {
		cfg, err := hostSpecConfig(s.catalog, h)
		if err != nil {
			return fmt.Errorf("projectopstest: seed: hosts[%d]: %w", i, err)
		}
		cfgs[i] = cfg
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	keyIDs := make([]string, len(seed.APIKeys))
	steps := []struct {
		name string
		n    int
		add  func(i int) error
	}{
		{"organizations", len(seed.Organizations), func(i int) error { _, err := s.st.addOrg(seed.Organizations[i]); return err }},
		{"users", len(seed.Users), func(i int) error { _, err := s.st.addUser(seed.Users[i]); return err }},
		{"projects", len(seed.Projects), func(i int) error { _, err := s.st.addProject(seed.Projects[i]); return err }},
		{"apiKeys", len(seed.APIKeys), func(i int) (err error) { keyIDs[i], err = s.st.addKey(seed.APIKeys[i]); return err }},
		{"servers", len(seed.Servers), func(i int) error { _, err := s.addServerLocked(seed.Servers[i]); return err }},
		{"hosts", len(seed.Hosts), func(i int) error { _, err := s.st.addHost(seed.Hosts[i], cfgs[i]); return err }},
		{"chatboxes", len(seed.Chatboxes), func(i int) error { _, err := s.st.addChatbox(seed.Chatboxes[i]); return err }},
		{"chatSessions", len(seed.ChatSessions), func(i int) error { _, err := s.st.addChatSession(seed.ChatSessions[i]); return err }},
		{"evalSuites", len(seed.EvalSuites), func(i int) error { _, err := s.addEvalSuiteLocked(seed.EvalSuites[i]); return err }},
		{"environments", len(seed.Environments), func(i int) error { _, err := s.addEnvironmentLocked(seed.Environments[i]); return err }},
	}
	for _, st := range steps {
		for i := range st.n {
			if err := st.add(i); err != nil {
				return fmt.Errorf("projectopstest: seed: %s[%d]: %w", st.name, i, err)
			}
		}
	}
	s.def = s.st.seedWorkspace(seed, keyIDs)
	return nil
}

// seedWorkspace picks Default for a seed: its first organization, that
// organization's first owner, first project, and the owner's first usable key.
func (st *state) seedWorkspace(seed *Seed, keyIDs []string) Workspace {
	var ws Workspace
	if len(st.orgs) == 0 {
		return ws
	}
	org := sortedByOrd(st.orgs, func(o *orgRec) int { return o.ord }, nil)[0]
	ws.OrganizationID = org.id
	for _, u := range sortedByOrd(st.users, func(u *userRec) int { return u.ord }, nil) {
		if u.orgID == org.id && u.role == RoleOwner {
			ws.UserID = u.id
			break
		}
	}
	for _, p := range sortedByOrd(st.projects, func(p *projectRec) int { return p.ord }, nil) {
		if p.orgID == org.id {
			ws.ProjectID = p.id
			break
		}
	}
	for i, k := range seed.APIKeys {
		if rec := st.keys[keyIDs[i]]; rec != nil && rec.userID == ws.UserID && !rec.revoked && rec.orgID != "" {
			ws.APIKeyID, ws.APIKey = rec.id, string(k.Secret)
			break
		}
	}
	return ws
}

// seedDefault creates the default workspace: org_1, its owner usr_1, prj_1
// and key_1 with a random secret.
func (s *Server) seedDefault() error {
	org, err := s.AddOrganization(OrganizationSpec{Name: "Default Organization", Plan: "free"})
	if err != nil {
		return err
	}
	user, err := s.AddUser(UserSpec{OrganizationID: org, Role: RoleOwner, Email: "owner@example.com", Name: "Default Owner"})
	if err != nil {
		return err
	}
	project, err := s.AddProject(ProjectSpec{OrganizationID: org, Name: "Default Project"})
	if err != nil {
		return err
	}
	secret, keyID, err := s.AddAPIKey(user, "default")
	if err != nil {
		return err
	}
	s.mu.Lock()
	s.def = Workspace{OrganizationID: org, UserID: user, ProjectID: project, APIKeyID: keyID, APIKey: secret}
	s.mu.Unlock()
	return nil
}

package projectopstest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/hostcfg"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/servers"
)

// AddServer saves an MCP server in a project and returns its id: what a
// user does in the product, for which the API has no route.
func (s *Server) AddServer(spec ServerSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.addServerLocked(spec)
	return id, helperError(err)
}

// AddHost adds a host to a project, from a template or a full config, with
// the same rules as POST /projects/{projectId}/hosts but one: a config
// need not pin a model (the service has such legacy rows; its model is
// then kept as given).
func (s *Server) AddHost(spec HostSpec) (string, error) {
	cfg, err := hostSpecConfig(s.catalog, spec)
	if err != nil {
		return "", helperError(err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.st.addHost(spec, cfg)
	return id, helperError(err)
}

// AddChatbox publishes a chatbox in a project.
func (s *Server) AddChatbox(spec ChatboxSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.st.addChatbox(spec)
	return id, helperError(err)
}

// AddChatSession adds a personal or project-shared chat session.
func (s *Server) AddChatSession(spec ChatSessionSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.st.addChatSession(spec)
	return id, helperError(err)
}

// AddEvalSuite adds an eval suite, optionally referencing a host.
func (s *Server) AddEvalSuite(spec EvalSuiteSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.addEvalSuiteLocked(spec)
	return id, helperError(err)
}

func (s *Server) addServerLocked(spec ServerSpec) (string, error) {
	if s.st.projects[spec.ProjectID] == nil {
		return "", notFound("server: project %q not found", spec.ProjectID)
	}
	if wire.TrimJS(spec.Name) == "" { // as the service trims names
		return "", errors.New("server: name is required")
	}
	spec = inProcessDefaults(spec)
	tt := spec.TransportType
	if tt == "" {
		tt = servers.TransportHTTP
		if spec.Command != "" {
			tt = servers.TransportStdio
		}
	}
	switch tt {
	case servers.TransportHTTP, servers.TransportSSE:
		if u, err := url.Parse(spec.URL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return "", fmt.Errorf("server %q: %s transport needs an absolute http(s) url", spec.Name, tt)
		}
	case servers.TransportStdio:
		if spec.Command == "" || spec.URL != "" {
			return "", fmt.Errorf("server %q: stdio transport needs a command and no url", spec.Name)
		}
	default:
		return "", fmt.Errorf("server %q: transportType %q is not http, sse or stdio", spec.Name, tt)
	}
	id, err := s.st.newID("srv", spec.ID)
	if err != nil {
		return "", fmt.Errorf("server: %w", err)
	}
	now := s.now()
	s.st.servers[id] = &serverRec{
		id: id, projectID: spec.ProjectID, name: spec.Name, transport: tt, url: spec.URL,
		command: spec.Command, args: append([]string(nil), spec.Args...),
		env: cloneSecrets(spec.Env), headers: cloneSecrets(spec.Headers), clientSecret: spec.ClientSecret,
		useOAuth: spec.UseOAuth, enabled: !spec.Disabled, oauthScopes: append([]string(nil), spec.OAuthScopes...),
		createdAt: now, updatedAt: now, ord: s.st.nextOrd(), backend: backendOf(spec),
	}
	return id, nil
}

func cloneSecrets(m map[string]Secret) map[string]Secret {
	if m == nil {
		return nil
	}
	out := make(map[string]Secret, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// hostSpecConfig resolves a HostSpec's config as the create route would,
// except that a seed's partial config is completed with the defaults the
// service's SDK gives a new host (hostcfg.Defaults), so seeds stay short.
// It may consult the live catalog, so it runs without the lock.
func hostSpecConfig(cc *hostcfg.Cache, spec HostSpec) (map[string]any, error) {
	present := map[string]bool{"name": true, "template": spec.Template != "",
		"theme": spec.Theme != "", "config": spec.Config != nil}
	var raw json.RawMessage
	if spec.Config != nil {
		b, err := json.Marshal(hostcfg.WithDefaults(spec.Config))
		if err != nil {
			return nil, fmt.Errorf("host %q: config: %w", spec.Name, err)
		}
		raw = b
	}
	// No caller to wait for: a live lookup is bounded by the fetch timeout
	// and the server's life.
	cfg, herr := cc.Resolve(context.Background(), hostcfg.Input{Name: spec.Name, Template: string(spec.Template),
		Theme: spec.Theme, Config: raw, Present: present})
	if herr == nil {
		herr = harnessNeedsComputer(cfg)
	}
	if herr != nil {
		return nil, apiRefused(herr, fmt.Sprintf("host %q", spec.Name))
	}
	return cfg, nil
}

func (st *state) addHost(spec HostSpec, cfg map[string]any) (string, error) {
	if st.projects[spec.ProjectID] == nil {
		return "", notFound("host: project %q not found", spec.ProjectID)
	}
	h, herr := st.insertHost(actor{}, spec.ProjectID, spec.ID, spec.Name, cfg)
	if herr != nil {
		return "", apiRefused(herr, fmt.Sprintf("host %q", spec.Name))
	}
	return h.id, nil
}

func (st *state) addChatbox(spec ChatboxSpec) (string, error) {
	if st.projects[spec.ProjectID] == nil {
		return "", notFound("chatbox: project %q not found", spec.ProjectID)
	}
	if strings.TrimSpace(spec.Name) == "" {
		return "", errors.New("chatbox: name is required")
	}
	mode := spec.Mode
	if mode == "" {
		mode = catalog.ModeProjectMembers
	}
	if mode != catalog.ModeProjectMembers && mode != catalog.ModeInvitedOnly && mode != catalog.ModeAnyoneWithLink {
		return "", fmt.Errorf("chatbox %q: mode %q is not project_members, invited_only or anyone_with_link", spec.Name, mode)
	}
	cb := &chatboxRec{
		projectID: spec.ProjectID, name: spec.Name, description: spec.Description, mode: mode,
		hostID: spec.HostID, hostStyle: spec.HostStyle, modelID: spec.ModelID, systemPrompt: spec.SystemPrompt,
		requireToolApproval: spec.RequireToolApproval, serverIDs: slices.Clone(spec.ServerIDs), // nil: the host's
	}
	if spec.Temperature != nil {
		t := *spec.Temperature
		cb.temperature = &t
	}
	if spec.HostID != "" {
		h := st.hosts[spec.HostID]
		if h == nil || h.projectID != spec.ProjectID {
			return "", notFound("chatbox %q: host %q not found in project %q", spec.Name, spec.HostID, spec.ProjectID)
		}
	}
	if herr := st.checkServerIDs(spec.ProjectID, cb.serverIDs, "serverIds"); herr != nil {
		return "", apiRefused(herr, fmt.Sprintf("chatbox %q", spec.Name))
	}
	id, err := st.newID("cbx", spec.ID)
	if err != nil {
		return "", fmt.Errorf("chatbox: %w", err)
	}
	now := st.now()
	cb.id, cb.linkToken, cb.createdAt, cb.updatedAt, cb.ord = id, linkToken(id), now, now, st.nextOrd()
	st.chatbox[id] = cb
	return id, nil
}

func (st *state) addChatSession(spec ChatSessionSpec) (string, error) {
	cs := &chatSessionRec{projectID: spec.ProjectID, ownerID: spec.OwnerUserID, title: spec.Title,
		status: spec.Status, pinned: spec.Pinned, unread: spec.Unread,
		lastActivityAt: spec.LastActivityAt, createdAt: spec.CreatedAt}
	if cs.status == "" {
		cs.status = catalog.ChatSessionActive
	}
	if cs.status != catalog.ChatSessionActive && cs.status != catalog.ChatSessionArchived {
		return "", fmt.Errorf("chat session: status %q is not active or archived", cs.status)
	}
	switch {
	case spec.ProjectID != "":
		p := st.projects[spec.ProjectID]
		if p == nil {
			return "", notFound("chat session: project %q not found", spec.ProjectID)
		}
		cs.orgID = p.orgID
	case spec.OwnerUserID == "":
		return "", errors.New("chat session: a shared session needs a projectId (or give ownerUserId)")
	}
	if spec.OwnerUserID != "" {
		u := st.users[spec.OwnerUserID]
		if u == nil {
			return "", notFound("chat session: user %q not found", spec.OwnerUserID)
		}
		if cs.orgID != "" && cs.orgID != u.orgID {
			return "", fmt.Errorf("chat session: user %q is not in the project's organization", u.id)
		}
		cs.orgID = u.orgID
	}
	now := st.now()
	if cs.createdAt.IsZero() {
		cs.createdAt = now
	}
	if cs.lastActivityAt.IsZero() {
		cs.lastActivityAt = cs.createdAt
	}
	id, err := st.newID("cs", spec.ID)
	if err != nil {
		return "", fmt.Errorf("chat session: %w", err)
	}
	cs.id, cs.ord = id, st.nextOrd()
	st.sessions[id] = cs
	return id, nil
}

func (s *Server) addEvalSuiteLocked(spec EvalSuiteSpec) (string, error) {
	if s.st.projects[spec.ProjectID] == nil {
		return "", notFound("eval suite: project %q not found", spec.ProjectID)
	}
	if spec.HostID != "" {
		if h := s.st.hosts[spec.HostID]; h == nil || h.projectID != spec.ProjectID {
			return "", notFound("eval suite %q: host %q not found in project %q", spec.Name, spec.HostID, spec.ProjectID)
		}
	}
	if herr := s.st.checkServerIDs(spec.ProjectID, spec.ServerIDs, "serverIds"); herr != nil {
		return "", apiRefused(herr, fmt.Sprintf("eval suite %q", spec.Name))
	}
	if err := s.ev.checkSuiteSpecLocked(&spec); err != nil { // seed_evals.go
		return "", err
	}
	id, err := s.st.newID("evs", spec.ID)
	if err != nil {
		return "", fmt.Errorf("eval suite: %w", err)
	}
	now := s.now()
	s.st.suites[id] = &evalSuiteRec{id: id, projectID: spec.ProjectID, name: spec.Name,
		serverIDs: append([]string(nil), spec.ServerIDs...), hostID: spec.HostID,
		createdAt: now, updatedAt: now, ord: s.st.nextOrd()}
	s.st.authorSuite(s.st.suites[id], &spec)
	return id, nil
}

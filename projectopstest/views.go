package projectopstest

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/hostconfig"
	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/hostcfg"
	"github.com/projectops/projectops-go/projectopstest/internal/views"
	"github.com/projectops/projectops-go/servers"
)

// The view functions project store records onto the SDK's wire types, so
// the double and the SDK share one definition of every shape. Call them
// with Server.mu held.

// chatboxBaseURL is where share links point; the double serves no UI.
const chatboxBaseURL = "https://app.projectops.test"

func projectView(p *projectRec, role Role) views.Project {
	v := catalog.Project{
		ID: p.id, Name: p.name, Description: p.description, Icon: p.icon,
		OrganizationID: p.orgID, Visibility: p.visibility, Role: string(role),
		CreatedAt: wire.MillisOf(p.createdAt), UpdatedAt: wire.MillisOf(p.updatedAt),
	}
	return views.Project{Project: v, Description: views.OrNull(v.Description), Icon: views.OrNull(v.Icon)}
}

// serverView never includes the stdio command line, env or raw headers.
func serverView(sv *serverRec) views.Server {
	v := servers.Server{
		ID: sv.id, ProjectID: sv.projectID, Name: sv.name, Enabled: sv.enabled,
		TransportType: listedTransport(sv.transport), URL: sv.url, UseOAuth: sv.useOAuth,
		HasClientSecret: sv.clientSecret != "", OAuthScopes: append([]string(nil), sv.oauthScopes...),
		CreatedAt: wire.MillisOf(sv.createdAt), UpdatedAt: wire.MillisOf(sv.updatedAt),
	}
	return views.Server{Server: v, URL: views.OrNull(v.URL)}
}

// listedTransport is a saved server's transportType as the service shows
// it, stdio or http: its records keep the SSE choice apart (the backend's
// httpVariant, which the API does not show), so an SSE server is an http
// record. The double still connects to it over SSE.
func listedTransport(t string) string {
	if t == servers.TransportSSE {
		return servers.TransportHTTP
	}
	return t
}

func hostView(h *hostRec) hosts.Host {
	return hosts.Host{
		ID: h.id, Name: h.name, HostConfigID: h.configID,
		ModelID: hostcfg.ModelID(h.config), ServerCount: len(hostcfg.ServerIDs(h.config)),
		CreatedAt: wire.MillisOf(h.createdAt), UpdatedAt: wire.MillisOf(h.updatedAt),
	}
}

// setHost stores a host's name and config and derives what reads serve:
// the config id and the encoded detail. The config must not be mutated
// afterwards (writes replace it).
// The detail's config is the backend's DTO: the canonical config with its
// row id (the content address, which is also the host's hostConfigId).
func setHost(h *hostRec, name string, cfg map[string]any) {
	h.name, h.config = name, cfg
	h.configID = hostconfig.ID(cfg)
	dto := make(map[string]any, len(cfg)+1)
	for k, v := range cfg {
		dto[k] = v
	}
	dto["id"] = h.configID
	raw, err := json.Marshal(dto)
	if err == nil {
		raw, err = json.Marshal(hosts.HostDetail{ID: h.id, Name: name, Config: raw})
	}
	if err != nil { // decoded JSON always re-encodes
		panic("projectopstest: host config does not encode: " + err.Error())
	}
	h.detail = raw
}

// chatboxSettings are a chatbox's execution settings: what its spec set,
// else its host's config as it is now. A chatbox publishes its host (the
// two are 1:1), so a change to the host shows in the chatbox.
type chatboxSettings struct {
	hostStyle, modelID, systemPrompt string
	temperature                      *float64
	requireToolApproval              bool
	serverIDs                        []string
}

func (st *state) chatboxSettings(cb *chatboxRec) chatboxSettings {
	s := chatboxSettings{hostStyle: cb.hostStyle, modelID: cb.modelID, systemPrompt: cb.systemPrompt,
		temperature: cb.temperature, requireToolApproval: cb.requireToolApproval, serverIDs: cb.serverIDs}
	h := st.hosts[cb.hostID]
	if h == nil {
		return s
	}
	cfg := h.config
	if s.hostStyle == "" {
		s.hostStyle, _ = cfg["hostStyle"].(string)
	}
	if s.modelID == "" {
		s.modelID = hostcfg.ModelID(cfg)
	}
	if s.systemPrompt == "" {
		s.systemPrompt, _ = cfg["systemPrompt"].(string)
	}
	if s.temperature == nil {
		s.temperature = configNumber(cfg["temperature"])
	}
	if !s.requireToolApproval {
		s.requireToolApproval, _ = cfg["requireToolApproval"].(bool)
	}
	if s.serverIDs == nil {
		s.serverIDs = hostcfg.ServerIDs(cfg)
	}
	return s
}

// configNumber is a host config's number, nil when it holds none.
func configNumber(v any) *float64 {
	switch n := v.(type) {
	case float64:
		return &n
	case json.Number:
		if f, err := n.Float64(); err == nil {
			return &f
		}
	}
	return nil
}

func (st *state) chatboxView(cb *chatboxRec) catalog.Chatbox {
	set := st.chatboxSettings(cb)
	v := catalog.Chatbox{
		ID: cb.id, ProjectID: cb.projectID, Name: cb.name, Description: cb.description,
		Mode: cb.mode, HostStyle: set.hostStyle, HostID: cb.hostID,
		ServerNames: []string{},
		Link:        &catalog.ChatboxLink{Path: "/chatbox/" + cb.linkToken, URL: chatboxBaseURL + "/chatbox/" + cb.linkToken},
		CreatedAt:   wire.MillisOf(cb.createdAt), UpdatedAt: wire.MillisOf(cb.updatedAt),
	}
	if h := st.hosts[cb.hostID]; h != nil {
		v.HostName = h.name
	}
	for _, id := range set.serverIDs {
		if sv := st.servers[id]; sv != nil {
			v.ServerNames = append(v.ServerNames, sv.name)
		}
	}
	v.ServerCount = len(v.ServerNames)
	return v
}

func (st *state) chatboxDetailView(cb *chatboxRec) catalog.ChatboxDetail {
	set := st.chatboxSettings(cb)
	d := catalog.ChatboxDetail{
		Chatbox: st.chatboxView(cb), ModelID: set.modelID, SystemPrompt: set.systemPrompt,
		RequireToolApproval: set.requireToolApproval, Servers: []catalog.ChatboxServer{},
	}
	if set.temperature != nil {
		t := *set.temperature
		d.Temperature = &t
	}
	for _, id := range set.serverIDs {
		if sv := st.servers[id]; sv != nil {
			d.Servers = append(d.Servers, catalog.ChatboxServer{ID: sv.id, Name: sv.name, URL: sv.url, UseOAuth: sv.useOAuth})
		}
	}
	return d
}

func sessionView(cs *chatSessionRec) views.Session {
	vis := "project"
	if cs.ownerID != "" {
		vis = "private"
	}
	v := catalog.ChatSession{
		ID: cs.id, Title: cs.title, Status: cs.status, ProjectID: cs.projectID, Visibility: vis,
		LastActivityAt: wire.MillisOf(cs.lastActivityAt), CreatedAt: wire.MillisOf(cs.createdAt),
		IsPinned: cs.pinned, IsUnread: cs.unread,
	}
	return views.Session{ChatSession: v, ProjectID: views.OrNull(v.ProjectID), Title: views.OrNull(v.Title)}
}

// linkToken derives a chatbox's share token from its id, deterministically.
func linkToken(id string) string {
	sum := sha256.Sum256([]byte("chatbox-link:" + id))
	return hex.EncodeToString(sum[:12])
}

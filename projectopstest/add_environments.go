package projectopstest

import (
	"errors"
	"fmt"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/projectopstest/internal/builds"

	"github.com/projectops/projectops-go/environments"
)

// EnvironmentSpec describes a computer environment for AddEnvironment and
// the seed's environments array.
type EnvironmentSpec struct {
	ID        string `json:"id,omitempty"`
	ProjectID string `json:"projectId"`
	// OwnerUserID is the creator: the only user who sees it while it is a
	// draft. It must be able to access the project.
	OwnerUserID string `json:"ownerUserId"`
	Name        string `json:"name"`
	Dockerfile  string `json:"dockerfile"`
	// Shared makes it project-shared instead of a personal draft.
	Shared bool `json:"shared,omitempty"`
	// Built builds it at once (synchronously, no build hook): the
	// environment then has a ready build, or a failed one when a RUN step
	// fails ("RUN exit 1"). The Dockerfile must be one the API would save
	// (FROM and RUN only, bases official and pinned by digest).
	Built bool `json:"built,omitempty"`
}

// AddEnvironment adds a computer environment and returns its id.
func (s *Server) AddEnvironment(spec EnvironmentSpec) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	id, err := s.addEnvironmentLocked(spec)
	return id, helperError(err)
}

func (s *Server) addEnvironmentLocked(spec EnvironmentSpec) (string, error) {
	p := s.st.projects[spec.ProjectID]
	if p == nil {
		return "", notFound("environment: project %q not found", spec.ProjectID)
	}
	if roleIn(s.st.users[spec.OwnerUserID], p) == "" {
		return "", fmt.Errorf("environment: owner %q cannot access project %q", spec.OwnerUserID, spec.ProjectID)
	}
	if wire.TrimJS(spec.Name) == "" {
		return "", errors.New("environment: name is required")
	}
	if spec.Dockerfile == "" {
		return "", errors.New("environment: dockerfile is required")
	}
	if err := checkDockerfile(spec.Dockerfile); err != nil { // as the API refuses it
		return "", fmt.Errorf("environment: %w", err)
	}
	e, err := s.st.insertEnv(spec)
	if err != nil {
		return "", fmt.Errorf("environment: %w", err)
	}
	if spec.Built {
		s.bld.buildNowLocked(e)
	}
	return e.id, nil
}

// insertEnv stores a new environment; the caller has checked spec.
func (st *state) insertEnv(spec EnvironmentSpec) (*envRec, error) {
	id, err := st.newID("env", spec.ID)
	if err != nil {
		return nil, err
	}
	now := st.now()
	e := &envRec{id: id, projectID: spec.ProjectID, ownerID: spec.OwnerUserID, name: wire.TrimJS(spec.Name),
		dockerfile: spec.Dockerfile, contentHash: builds.ContentHash(spec.Dockerfile), sharing: environments.SharingUser,
		createdAt: now, updatedAt: now, ord: st.nextOrd()}
	if spec.Shared {
		e.sharing = environments.SharingProject
	}
	st.envStore().envs[id] = e
	return e, nil
}

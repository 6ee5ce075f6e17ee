package projectopstest

import (
	"fmt"
	"slices"
)

// ComputerState is a snapshot of a user's computer in a project, for tests.
type ComputerState struct {
	ID, ProjectID, UserID string
	// Provider is the computer provider the computer runs on.
	Provider string
	// EnvironmentID and BuildID name the image the computer runs; both are
	// empty for BaseImage (never booted, or its environment was deleted).
	EnvironmentID, BuildID string
	// BaseImageDigests are the booted build's FROM digests.
	BaseImageDigests []string
	// Status is ComputerProvisioning right after a boot or reset, then
	// ComputerRunning once the background re-provisioning is done (Wait).
	Status string
	// Installed is the mutable state added since the last provisioning
	// (InstallOnComputer); boot and reset wipe it.
	Installed []string
	// Provisions counts boots and resets.
	Provisions int
}

// Image is the image the computer runs: "<provider>/<buildId>" or BaseImage.
func (c ComputerState) Image() string {
	if c.BuildID == "" {
		return BaseImage
	}
	return c.Provider + "/" + c.BuildID
}

// Computer returns a snapshot of userID's computer in projectID; ok is false
// when the user has no computer there yet (it is made by the first boot,
// reset, InstallOnComputer or SetComputerProvider).
func (s *Server) Computer(projectID, userID string) (c ComputerState, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	rec := s.st.envStore().computers[[2]string{projectID, userID}]
	if rec == nil {
		return ComputerState{}, false
	}
	return ComputerState{
		ID: rec.id, ProjectID: rec.projectID, UserID: rec.userID, Provider: rec.provider,
		EnvironmentID: rec.envID, BuildID: rec.buildID, BaseImageDigests: slices.Clone(rec.digests),
		Status: rec.status, Installed: slices.Clone(rec.installed), Provisions: rec.provisions,
	}, true
}

// InstallOnComputer records mutable state (installed packages, files) on
// userID's computer in projectID, as if the user had installed it there.
func (s *Server) InstallOnComputer(projectID, userID string, items ...string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.st.checkComputerOwner(projectID, userID); err != nil {
		return err
	}
	c := s.bld.computerLocked(projectID, userID)
	c.installed = append(c.installed, items...)
	return nil
}

// SetComputerProvider moves userID's computer in projectID to another
// provider, so that booting a build of the deployment's provider is refused
// (CONFLICT: the build is for another provider).
func (s *Server) SetComputerProvider(projectID, userID, provider string) error {
	if provider == "" {
		return fmt.Errorf("projectopstest: SetComputerProvider: empty provider")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := s.st.checkComputerOwner(projectID, userID); err != nil {
		return err
	}
	s.bld.computerLocked(projectID, userID).provider = provider
	return nil
}

func (st *state) checkComputerOwner(projectID, userID string) error {
	if st.projects[projectID] == nil {
		return helperError(notFound("project %q not found", projectID))
	}
	if st.users[userID] == nil {
		return helperError(notFound("user %q not found", userID))
	}
	return nil
}

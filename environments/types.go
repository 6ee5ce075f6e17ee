package environments

import (
	"github.com/projectops/projectops-go/shared"
)

// Sharing says who sees an environment.
type Sharing string

// Sharing values. A new environment is a personal draft (SharingUser),
// visible to its creator only; Share promotes it to SharingProject.
const (
	SharingUser    Sharing = "user"
	SharingProject Sharing = "project"
)

// BuildStatus is the state of a build: queued, then building, then ready or
// failed.
type BuildStatus string

// Build statuses. Ready and failed are terminal.
const (
	BuildQueued   BuildStatus = "queued"
	BuildBuilding BuildStatus = "building"
	BuildReady    BuildStatus = "ready"
	BuildFailed   BuildStatus = "failed"
)

// Terminal reports whether a build in this status will not change again.
// An unknown status (one added by a later service version) is not terminal.
func (s BuildStatus) Terminal() bool { return s == BuildReady || s == BuildFailed }

// ProviderA is the computer provider of the specification ("provider_a", a
// neutral stand-in for the one provider the service names).
const ProviderA = "provider_a"

// Environment is a computer environment: a Dockerfile-defined image for the
// project's computers, pinned by digest to its builds.
type Environment struct {
	ID        string `json:"id"`
	ProjectID string `json:"projectId"`
	Name      string `json:"name"`
	// Dockerfile is the image definition as last saved. Saving a new one
	// takes effect on computers only after a rebuild.
	Dockerfile string `json:"dockerfile"`
	// ContentHash identifies the Dockerfile's content ("sha256:<hex>").
	ContentHash string  `json:"contentHash"`
	Sharing     Sharing `json:"sharing"`
	// IsOwner reports whether the caller created the environment.
	IsOwner bool `json:"isOwner"`
	// CurrentBuild is the latest build (whatever its status), nil before the
	// first build.
	CurrentBuild *Build        `json:"currentBuild"`
	CreatedAt    shared.Millis `json:"createdAt"`
	UpdatedAt    shared.Millis `json:"updatedAt"`
}

// Build is one build of an environment's image.
type Build struct {
	ID     string      `json:"id"`
	Status BuildStatus `json:"status"`
	// Provider is the computer provider the image was built for; a computer
	// boots only images of its own provider.
	Provider string `json:"provider"`
	// ProviderBuildID identifies the build at the provider. Its wire name
	// is the spec's neutral providerBuildId; the hosted service names the
	// same field e2bBuildId, which decoding reads when providerBuildId is
	// absent (or null). Encoding sends providerBuildId only.
	ProviderBuildID string `json:"providerBuildId,omitempty"`
	// BaseImageDigests are the resolved sha256 digests of every FROM base
	// image: the reproducibility pin.
	BaseImageDigests []string `json:"baseImageDigests"`
	// LogPreview is the tail of the build log, capped by the service.
	LogPreview string `json:"logPreview,omitempty"`
	// Error says why a failed build failed.
	Error      string        `json:"error,omitempty"`
	CreatedAt  shared.Millis `json:"createdAt"`
	StartedAt  shared.Millis `json:"startedAt,omitempty"`
	FinishedAt shared.Millis `json:"finishedAt,omitempty"`
}

// ListParams pages a listing. The zero value (or nil) starts at the first
// page with the service's default page size.
type ListParams struct {
	// Cursor is a previous page's NextCursor.
	Cursor string
	// Limit is the page size; 0 means the service default.
	Limit int
}

// CreateParams creates an environment.
type CreateParams struct {
	// Name is the display name (required, non-blank).
	Name string `json:"name"`
	// Dockerfile is the image definition (required). It starts FROM an
	// allowlisted official base image pinned by @sha256 digest and holds
	// only FROM and RUN instructions; the service refuses any other with
	// VALIDATION_ERROR when it is saved (Create and Update).
	Dockerfile string `json:"dockerfile"`
}

// UpdateParams edits an environment: only non-empty fields change, and at
// least one must be set. A new Dockerfile takes effect after a rebuild.
// Plain strings are enough: the service refuses an empty name or Dockerfile
// (minLength 1), so an empty field can only mean "leave unchanged".
type UpdateParams struct {
	// Name is the new display name (non-blank), or "" to keep it.
	Name string `json:"name,omitempty"`
	// Dockerfile is the new image definition, or "" to keep it. As with
	// CreateParams, the service refuses with VALIDATION_ERROR one that
	// holds an instruction other than FROM and RUN or whose base is not an
	// allowlisted official image pinned by @sha256 digest.
	Dockerfile string `json:"dockerfile,omitempty"`
}

// Deleted confirms a deletion.
type Deleted struct {
	ID      string `json:"id"`
	Deleted bool   `json:"deleted"`
}

// BuildStarted acknowledges a build request (HTTP 202).
type BuildStarted struct {
	// ID is the environment's id.
	ID string `json:"id"`
	// BuildID is the new build; poll it with WaitForBuild or ListBuilds.
	BuildID string `json:"buildId"`
	// Reused reports that a ready build of the same Dockerfile and provider
	// already existed, so the new build reuses its image layers.
	Reused bool `json:"reused"`
}

// ComputerAttached is the answer to Boot.
type ComputerAttached struct {
	EnvironmentID string `json:"environmentId"`
	ComputerID    string `json:"computerId"`
	// Status is the computer's lifecycle status after attaching; it
	// re-provisions ("provisioning") before it runs again.
	Status string `json:"status"`
}

// ComputerReset is the answer to Reset.
type ComputerReset struct {
	ProjectID string `json:"projectId"`
	Reset     bool   `json:"reset"`
}

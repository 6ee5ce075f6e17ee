package projectopstest

import (
	"context"
	"errors"
	"time"

	"github.com/projectops/projectops-go/environments"
)

// BuildLogPreviewCap is the most bytes of build log a build record's
// logPreview carries: the tail of the log, cut at a line boundary and
// prefixed with a truncation marker when longer.
const BuildLogPreviewCap = 4 << 10

// Page sizes of the environment and build listings (the specification
// leaves them open): ?limit defaults to 50 and may be 1 to 200.
const (
	envListDefaultLimit = 50
	envListMaxLimit     = 200
)

// BaseImage is the image a computer runs before any environment is booted on
// it, and again after the environment it was booted from is deleted.
const BaseImage = "projectops/computer-base:latest"

// envRec is a computer environment. ownerID is its creator; a personal
// draft (sharing "user") is visible to its owner only.
type envRec struct {
	id, projectID, ownerID, name string
	dockerfile, contentHash      string
	sharing                      environments.Sharing
	createdAt, updatedAt         time.Time
	ord                          int
	builds                       []*buildRec // oldest first
}

// buildRec is one build. dockerfile and contentHash are the snapshot the
// build was triggered with: editing the environment meanwhile does not
// change what an in-flight build builds. cancel stops the build's goroutine
// (the environment was deleted); it is nil once the build is terminal.
type buildRec struct {
	id, envID, provider, providerBuildID string
	dockerfile, contentHash              string
	status                               environments.BuildStatus
	digests                              []string
	log                                  []string
	errMsg                               string
	reused                               bool
	createdAt, startedAt, finishedAt     time.Time
	ord                                  int
	cancel                               context.CancelFunc
}

// Computer statuses.
const (
	ComputerProvisioning = "provisioning"
	ComputerRunning      = "running"
)

// computerRec is a user's computer in a project. envID and buildID name the
// image it runs ("" for the base image).
type computerRec struct {
	id, projectID, userID, provider string
	envID, buildID                  string
	digests                         []string
	status                          string
	installed                       []string
	provisions                      int
}

// envState holds the environments' rows inside state (guarded by
// Server.mu); its maps are made on first use.
type envState struct {
	envs      map[string]*envRec
	builds    map[string]*buildRec
	computers map[[2]string]*computerRec // key: {projectID, userID}
}

// envStore returns st's environment rows, making the maps on first use.
func (st *state) envStore() *envState {
	es := &st.env
	if es.envs == nil {
		es.envs = map[string]*envRec{}
		es.builds = map[string]*buildRec{}
		es.computers = map[[2]string]*computerRec{}
	}
	return es
}

// BuildStep is a step of a build the double runs, as seen by a build hook
// (WithBuildHook).
type BuildStep struct {
	ProjectID, EnvironmentID, BuildID string
	// Index is 0 for the step that moves the build from queued to building,
	// then 1..Total for each Dockerfile instruction before it runs.
	Index, Total int
	// Instruction is the instruction about to run ("RUN apt-get update"),
	// empty for step 0.
	Instruction string
}

// envOptions configure environments and computers.
type envOptions struct {
	provider  string
	hook      func(ctx context.Context, step BuildStep) error
	stepDelay time.Duration
}

func (o *options) envDefaults() envOptions {
	e := o.env
	if e.provider == "" {
		e.provider = environments.ProviderA
	}
	return e
}

// WithComputerProvider sets the computer provider of the deployment: builds
// are made for it and new computers run on it. The default is
// environments.ProviderA. Server.SetComputerProvider moves one computer to
// another provider, to exercise the provider check of boot.
func WithComputerProvider(provider string) Option {
	return checked("WithComputerProvider", provider != "", "empty provider", func(o *options) { o.env.provider = provider })
}

// WithBuildHook calls hook on the build's goroutine before each step of
// every build (see BuildStep), so tests can hold a build in a given state,
// observe it, and release it: no sleeping needed. hook must return when ctx
// ends (the server closed or the environment was deleted). A non-nil error
// fails the build with that error as the provider's reason.
func WithBuildHook(hook func(ctx context.Context, step BuildStep) error) Option {
	return func(o *options) error {
		if hook == nil {
			return errors.New("projectopstest: WithBuildHook: nil hook")
		}
		o.env.hook = hook
		return nil
	}
}

// WithBuildStepDelay paces builds on the real clock: each step waits d, so
// a client polling a standalone double sees builds progress. The default
// is 0: builds run as fast as the parsing goes.
func WithBuildStepDelay(d time.Duration) Option {
	return checked("WithBuildStepDelay", d >= 0, "negative delay", func(o *options) { o.env.stepDelay = d })
}

package projectopstest

import (
	"fmt"
	"net/http"
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/builds"
	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/wire"
)

// envView and buildView project environment records onto the SDK's wire
// types. Call them with Server.mu held.
func envView(e *envRec, userID string) environments.Environment {
	v := environments.Environment{
		ID: e.id, ProjectID: e.projectID, Name: e.name, Dockerfile: e.dockerfile,
		ContentHash: e.contentHash, Sharing: e.sharing, IsOwner: e.ownerID == userID,
		CreatedAt: wire.MillisOf(e.createdAt), UpdatedAt: wire.MillisOf(e.updatedAt),
	}
	if n := len(e.builds); n > 0 {
		b := buildView(e.builds[n-1])
		v.CurrentBuild = &b
	}
	return v
}

func buildView(b *buildRec) environments.Build {
	v := environments.Build{
		ID: b.id, Status: b.status, Provider: b.provider, ProviderBuildID: b.providerBuildID,
		BaseImageDigests: append([]string{}, b.digests...), LogPreview: logPreview(b.log),
		Error: b.errMsg, CreatedAt: wire.MillisOf(b.createdAt),
	}
	if !b.startedAt.IsZero() {
		v.StartedAt = wire.MillisOf(b.startedAt)
	}
	if !b.finishedAt.IsZero() {
		v.FinishedAt = wire.MillisOf(b.finishedAt)
	}
	return v
}

// pageArgs reads ?limit and ?cursor of a keyset-paginated listing whose
// cursor encodes the last item's ord. The service reads neither on these
// routes (it answers every item in one page), so neither is ever refused:
// a limit is clamped as the eval listings clamp theirs, and a cursor the
// double did not make starts from the top.
func pageArgs(r *http.Request, kind string) (limit, after int) {
	q := edge.QueryOf(r)
	limit = edge.ClampLimit(q.Get("limit"), envListDefaultLimit, envListMaxLimit)
	if c := q.Get("cursor"); c != "" {
		if pos, herr := edge.DecodeCursor(kind, c, "cursor"); herr == nil {
			if n, err := strconv.Atoi(pos); err == nil && n >= 0 {
				after = n
			}
		}
	}
	return limit, after
}

// checkEnvFields validates the types of a name and Dockerfile present in a
// body, as the service's router does: the reference sets no maximum length
// on either (the request body cap bounds both); a name must not be empty
// after trimming, a Dockerfile must not be empty. Whether the Dockerfile is
// one the build can read is the service backend's question, asked after the
// lookup and the access checks: checkEnvFields reads it here, without
// Server.mu (a large Dockerfile would hold every request up), and keeps the
// answer for apply (dockerfileRefusal).
func checkEnvFields(c *call, p environments.UpdateParams) *edge.Error {
	if c.present["name"] && wire.TrimJS(p.Name) == "" {
		return edge.Validation("name", "name must not be empty")
	}
	if c.present["dockerfile"] {
		if p.Dockerfile == "" {
			return edge.Validation("dockerfile", "dockerfile must not be empty")
		}
		c.scratch = dockerfileError(p.Dockerfile)
	}
	return nil
}

// dockerfileRefusal is the refusal checkEnvFields kept for the body's
// Dockerfile, or nil (none, or no Dockerfile in the body).
func dockerfileRefusal(c *call) *edge.Error {
	herr, _ := c.scratch.(*edge.Error)
	return herr
}

// dockerfileError is the VALIDATION_ERROR for a Dockerfile being saved that
// the build cannot read (only what a build alone finds out, a failing RUN,
// fails later), or nil.
func dockerfileError(src string) *edge.Error {
	if err := checkDockerfile(src); err != nil {
		return edge.Validation("dockerfile", err.Error())
	}
	return nil
}

// checkDockerfile reads a Dockerfile as the build will (builds.Parse):
// FROM and RUN only, every base an official image pinned by digest.
func checkDockerfile(src string) error {
	if _, err := builds.Parse(src); err != nil {
		return fmt.Errorf("invalid Dockerfile: %w", err)
	}
	return nil
}

package projectopstest

import (
	"strconv"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/internal/pager"
)

// listBuilds pages through an environment's builds, newest first (keyset on
// creation order).
func listBuilds(c *call, _ *none) (pager.Page[environments.Build], *edge.Error) {
	page := pager.Page[environments.Build]{Items: []environments.Build{}}
	kind := "builds:" + c.path("environmentId")
	e, herr := c.env() // a missing environment is 404 whatever the query says
	if herr != nil {
		return page, herr
	}
	limit, before := pageArgs(c.r, kind)
	for i := len(e.builds) - 1; i >= 0; i-- {
		b := e.builds[i]
		if before > 0 && b.ord >= before {
			continue
		}
		if len(page.Items) == limit {
			page.NextCursor = edge.EncodeCursor(kind, strconv.Itoa(b.ord+1))
			break
		}
		page.Items = append(page.Items, buildView(b))
	}
	return page, nil
}

// buildEnvironment records a queued build of the current Dockerfile and
// answers 202 at once; the build runs on a goroutine the server owns.
func buildEnvironment(c *call, _ *noBody) (environments.BuildStarted, *edge.Error) {
	e, herr := c.env()
	if herr != nil {
		return environments.BuildStarted{}, herr
	}
	s, projectID := c.s, c.project.id
	b, ctx := s.bld.startBuildLocked(e)
	c.after(func() { s.bld.runBuild(ctx, projectID, b) })
	return environments.BuildStarted{ID: e.id, BuildID: b.id, Reused: b.reused}, nil
}

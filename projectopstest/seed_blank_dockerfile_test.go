package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// 33f01b7 makes the API save a Dockerfile of only white space (the
// reference's minLength 1; it "fails when built"), but the double's own
// seeding (AddEnvironment, and the seed file's environments) still refuses
// it with "dockerfile is required": a state the API can create cannot be
// seeded, and EnvironmentSpec.Built's "a failed one when its Dockerfile
// does not build" cannot be had for it.
func TestSeedWhitespaceDockerfileAsAPI(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, noLimit)
	ws := srv.Default()
	if _, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: ws.ProjectID, OwnerUserID: ws.UserID,
		Name: "blank", Dockerfile: " \n", Built: true}); err != nil {
		t.Errorf("AddEnvironment with a whitespace Dockerfile, which POST …/computer-environments saves: %v", err)
	}
}

package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/projectopstest"
)

// "env build" off a terminal writes build progress lines (polling
// goroutine) and heartbeat lines (heartbeat goroutine) to the same stderr:
// run takes any io.Writer, so the writes must be serialised (this races
// under -race on a bytes.Buffer without the lock).
func TestEnvBuildProgressAndHeartbeatShareStderr(t *testing.T) {
	old := heartbeatEvery
	heartbeatEvery = time.Millisecond
	t.Cleanup(func() { heartbeatEvery = old })
	srv, _ := envServer(t, projectopstest.WithBuildStepDelay(20*time.Millisecond))
	id, err := srv.AddEnvironment(projectopstest.EnvironmentSpec{ProjectID: "prj_demo", OwnerUserID: "usr_owner",
		Name: "e", Dockerfile: "FROM alpine@sha256:54c5b3dd459d5ef778bb2fa1e23a5fb0e1b62ae66970bcb436e8f81a1a1a8e41\nRUN a\nRUN b\nRUN c\nRUN d\n"})
	if err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	code := run(t.Context(), []string{"env", "build", "--interval", "1ms", id}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stderr.String(), ": ready") {
		t.Fatalf("exit %d\n%s", code, stderr.String())
	}
}

package projectopstest

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/environments"
)

// TestDockerfileIsReadWithoutTheLock: create's and update's check read the
// Dockerfile, and run without Server.mu (held here, so a check that took it
// would never return), keeping the refusal for apply; apply, under the lock,
// only returns it.
func TestDockerfileIsReadWithoutTheLock(t *testing.T) {
	s, err := NewServer()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const bad = "FROM debian:bookworm-slim\n" // unpinned
	s.mu.Lock()
	defer s.mu.Unlock()
	c := &call{s: s, present: map[string]bool{"name": true, "dockerfile": true}}
	if herr := checkCreateEnvironment(c, &environments.CreateParams{Name: "e", Dockerfile: bad}); herr != nil {
		t.Fatalf("check = %v, want the refusal kept for apply", herr)
	}
	if herr := dockerfileRefusal(c); herr == nil || !strings.Contains(herr.Body.Message, "must be pinned by digest") {
		t.Errorf("kept refusal = %v", herr)
	}
	c = &call{s: s, present: map[string]bool{"dockerfile": true}}
	if herr := checkUpdateEnvironment(c, &environments.UpdateParams{Dockerfile: bad}); herr != nil {
		t.Fatalf("check = %v, want the refusal kept for apply", herr)
	}
	if herr := dockerfileRefusal(c); herr == nil || !strings.Contains(herr.Body.Message, "must be pinned by digest") {
		t.Errorf("kept refusal = %v", herr)
	}
	// A Dockerfile the build can read, or none, leaves nothing to refuse.
	c = &call{s: s, present: map[string]bool{"name": true}}
	if herr := checkUpdateEnvironment(c, &environments.UpdateParams{Name: "n"}); herr != nil || dockerfileRefusal(c) != nil {
		t.Errorf("name only: check = %v, refusal = %v", herr, dockerfileRefusal(c))
	}
}

package ingest_test

import (
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/ingest"
)

func envOf(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestExternalRunIDAndCI(t *testing.T) {
	t.Parallel()
	gha := []string{"GITHUB_ACTIONS", "true", "GITHUB_RUN_ID", "99", "GITHUB_JOB", "test", "GITHUB_RUN_ATTEMPT", "2", "GITHUB_ACTION", "__run_2",
		"GITHUB_SERVER_URL", "https://github.com", "GITHUB_REPOSITORY", "o/r", "GITHUB_SHA", "abc", "GITHUB_REF_NAME", "main"}
	for _, tt := range []struct {
		name, explicit string
		env            []string
		want           string
	}{
		{"explicit wins", "mine", append([]string{ingest.EnvExternalRunID, "env"}, gha...), "mine"},
		{"environment next", "", append([]string{ingest.EnvExternalRunID, "env"}, gha...), "env"},
		// The step is part of it: two reports in one job are two runs.
		{"github actions", "", gha, "gha-99-test-2-__run_2"},
		{"buildkite", "", []string{"BUILDKITE", "true", "BUILDKITE_BUILD_ID", "b1", "BUILDKITE_JOB_ID", "j1", "BUILDKITE_RETRY_COUNT", "1"}, "buildkite-b1-j1-1"},
		{"gitlab", "", []string{"GITLAB_CI", "true", "CI_PIPELINE_ID", "7", "CI_JOB_ID", "8"}, "gitlab-7-8"},
		{"circleci", "", []string{"CIRCLECI", "true", "CIRCLE_WORKFLOW_ID", "w", "CIRCLE_BUILD_NUM", "5"}, "circleci-w-5"},
	} {
		if got := ingest.ExternalRunID(tt.explicit, envOf(tt.env...)); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
	a, b := ingest.ExternalRunID("", envOf()), ingest.ExternalRunID("", envOf())
	if !strings.HasPrefix(a, "local-") || a == b {
		t.Errorf("random ids %q %q", a, b)
	}
	want := &ingest.CIMetadata{Provider: "github-actions", PipelineID: "99", JobID: "test",
		RunURL: "https://github.com/o/r/actions/runs/99", Branch: "main", CommitSHA: "abc"}
	if diff := gocmp.Diff(want, ingest.DetectCI(envOf(gha...))); diff != "" {
		t.Errorf("DetectCI (-want +got):\n%s", diff)
	}
	if ingest.DetectCI(envOf()) != nil {
		t.Error("CI detected outside CI")
	}
	// Iteration ids depend on every part and the occurrence, and on
	// nothing else.
	ids := map[string]bool{}
	for _, id := range []string{ingest.IterationID(1, "p", "T"), ingest.IterationID(2, "p", "T"),
		ingest.IterationID(1, "pT"), ingest.IterationID(1, "p", "T", ""), ingest.IterationID(1, "q", "T")} {
		ids[id] = true
	}
	first, again := ingest.IterationID(1, "p", "T"), ingest.IterationID(1, "p", "T")
	if len(ids) != 5 || first != again {
		t.Errorf("iteration ids collide: %v", ids)
	}
}

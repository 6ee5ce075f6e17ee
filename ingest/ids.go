package ingest

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"strconv"
	"strings"
)

// EnvExternalRunID names the run explicitly (all processes reporting into
// one run, e.g. every package of a go test invocation, share it). A run
// belongs to one suite: give each suite its own.
const EnvExternalRunID = "PROJECTOPS_EXTERNAL_RUN_ID"

// ExternalRunID chooses a run's external id: explicit when given, else
// PROJECTOPS_EXTERNAL_RUN_ID, else derived from the CI job (so a retried
// upload or a re-run of the reporter in the same job reuses the run), else
// random. getenv is os.Getenv in production.
func ExternalRunID(explicit string, getenv func(string) string) string {
	if explicit != "" {
		return explicit
	}
	if v := getenv(EnvExternalRunID); v != "" {
		return v
	}
	if id := ciRunID(getenv); id != "" {
		return id
	}
	var b [8]byte
	_, _ = rand.Read(b[:])
	return "local-" + hex.EncodeToString(b[:])
}

// ciRunID derives an id for the current CI job and attempt, or "".
func ciRunID(getenv func(string) string) string {
	join := func(prefix string, keys ...string) string {
		parts := []string{prefix}
		for _, k := range keys {
			v := getenv(k)
			if v == "" {
				v = "0"
			}
			parts = append(parts, v)
		}
		return strings.Join(parts, "-")
	}
	switch {
	case getenv("GITHUB_ACTIONS") == "true" && getenv("GITHUB_RUN_ID") != "":
		// GITHUB_ACTION names the step ("__run", "__run_2", …): two
		// reports in one job are two runs, a retried step the same one.
		return join("gha", "GITHUB_RUN_ID", "GITHUB_JOB", "GITHUB_RUN_ATTEMPT", "GITHUB_ACTION")
	case getenv("BUILDKITE") == "true" && getenv("BUILDKITE_BUILD_ID") != "":
		return join("buildkite", "BUILDKITE_BUILD_ID", "BUILDKITE_JOB_ID", "BUILDKITE_RETRY_COUNT")
	case getenv("GITLAB_CI") == "true" && getenv("CI_PIPELINE_ID") != "":
		return join("gitlab", "CI_PIPELINE_ID", "CI_JOB_ID")
	case getenv("CIRCLECI") == "true" && getenv("CIRCLE_WORKFLOW_ID") != "":
		return join("circleci", "CIRCLE_WORKFLOW_ID", "CIRCLE_BUILD_NUM")
	}
	return ""
}

// DetectCI describes the CI job from the environment, or returns nil.
func DetectCI(getenv func(string) string) *CIMetadata {
	switch {
	case getenv("GITHUB_ACTIONS") == "true":
		c := &CIMetadata{Provider: "github-actions", PipelineID: getenv("GITHUB_RUN_ID"), JobID: getenv("GITHUB_JOB"),
			Branch: getenv("GITHUB_REF_NAME"), CommitSHA: getenv("GITHUB_SHA")}
		if srv, repo := getenv("GITHUB_SERVER_URL"), getenv("GITHUB_REPOSITORY"); srv != "" && repo != "" && c.PipelineID != "" {
			c.RunURL = srv + "/" + repo + "/actions/runs/" + c.PipelineID
		}
		return c
	case getenv("BUILDKITE") == "true":
		return &CIMetadata{Provider: "buildkite", PipelineID: getenv("BUILDKITE_BUILD_ID"), JobID: getenv("BUILDKITE_JOB_ID"),
			RunURL: getenv("BUILDKITE_BUILD_URL"), Branch: getenv("BUILDKITE_BRANCH"), CommitSHA: getenv("BUILDKITE_COMMIT")}
	case getenv("GITLAB_CI") == "true":
		return &CIMetadata{Provider: "gitlab", PipelineID: getenv("CI_PIPELINE_ID"), JobID: getenv("CI_JOB_ID"),
			RunURL: getenv("CI_JOB_URL"), Branch: getenv("CI_COMMIT_REF_NAME"), CommitSHA: getenv("CI_COMMIT_SHA")}
	case getenv("CIRCLECI") == "true":
		return &CIMetadata{Provider: "circleci", PipelineID: getenv("CIRCLE_WORKFLOW_ID"), JobID: getenv("CIRCLE_BUILD_NUM"),
			RunURL: getenv("CIRCLE_BUILD_URL"), Branch: getenv("CIRCLE_BRANCH"), CommitSHA: getenv("CIRCLE_SHA1")}
	}
	return nil
}

// IterationID is the deterministic externalIterationId of the occurrence-th
// (1-based) result with the given identity parts (for go test: package and
// test name): the same result always gets the same id, so a re-sent chunk
// or a re-run of the reporter never duplicates a row.
func IterationID(occurrence int, parts ...string) string {
	h := sha256.New()
	var n [8]byte
	for _, p := range parts {
		binary.LittleEndian.PutUint64(n[:], uint64(len(p)))
		h.Write(n[:])
		h.Write([]byte(p))
	}
	var sum [sha256.Size]byte
	return "it-" + hex.EncodeToString(h.Sum(sum[:0])[:12]) + "-" + strconv.Itoa(occurrence)
}

package main

import (
	"os"
	"path/filepath"
	"testing"
)

// What report prints is pinned by golden files (stdout, then stderr):
// failing tests with their output as they end and the closing summary, the
// summary alone with -q, and a JUnit file's summary (-update rewrites them).
func TestReportOutputGolden(t *testing.T) {
	stream, err := os.ReadFile("../../ingest/testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, in string
		args     []string
	}{
		{"gotest", string(stream), []string{"report", "--external-run-id", "golden-1"}},
		{"gotest-quiet", string(stream), []string{"report", "-q", "--external-run-id", "golden-2"}},
		{"gotest-json", string(stream), []string{"report", "-q", "--json", "--external-run-id", "golden-3"}},
		{"junit", "", []string{"report", "--junit", "../../ingest/testdata/junit.xml", "--external-run-id", "golden-4"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reportEnv(t) // a fresh double: run ids are deterministic
			_, stdout, stderr := runReportCLI(t, tc.in, tc.args...)
			golden(t, filepath.Join("testdata", "report", tc.name+".golden"),
				[]byte("-- stdout --\n"+stdout+"-- stderr --\n"+stderr))
		})
	}
}

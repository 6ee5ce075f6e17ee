package main

import (
	"bytes"
	"context"
	"os"
	"regexp"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// The text rendered from go test -json events is what plain go test
// printed for the same packages (testdata holds both captures, from go
// 1.26: failing, skipped, parallel and sub tests, a failing TestMain and a
// panic), up to timings and addresses.
func TestPlainTextMatchesGoTest(t *testing.T) {
	t.Parallel()
	events, err := os.ReadFile("testdata/gotest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("testdata/gotest-plain.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out, errw bytes.Buffer
	p := newPlainText(&out, &errw)
	rec := ingest.RecorderFunc(func(context.Context, ingest.Result) error { return nil })
	if _, err := ingest.ReadGoTest(t.Context(), bytes.NewReader(events), rec, ingest.GoTestOptions{OnEvent: p.event}); err != nil {
		t.Fatal(err)
	}
	p.finish()
	norm := regexp.MustCompile(`\d+\.\d+s|0x[0-9a-f]+\??|goroutine \d+`)
	got, exp := norm.ReplaceAllString(out.String(), "N"), norm.ReplaceAllString(string(want), "N")
	if got != exp {
		t.Errorf("rendered:\n%s\nwant:\n%s", got, exp)
	}
}

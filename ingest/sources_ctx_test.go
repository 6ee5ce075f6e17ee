package ingest_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/ingest"
)

// A cancelled read returns the context's error even when nothing it read
// is recorded (skips, plain output): the Recorder is where ctx would
// otherwise be noticed.
func TestSourcesReturnTheContextError(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	nothing := ingest.RecorderFunc(func(context.Context, ingest.Result) error { return nil })
	skips := `{"Action":"run","Package":"p","Test":"TestA"}` + "\n" + `{"Action":"skip","Package":"p","Test":"TestA"}` + "\n" + "plain\n"
	for name, read := range map[string]func() (ingest.SourceStats, error){
		"go test": func() (ingest.SourceStats, error) {
			return ingest.ReadGoTest(ctx, strings.NewReader(skips), nothing, ingest.GoTestOptions{})
		},
		"junit": func() (ingest.SourceStats, error) {
			return ingest.ReadJUnit(ctx, strings.NewReader(`<testsuite><testcase name="a"><skipped/></testcase></testsuite>`), nothing)
		},
		"jest": func() (ingest.SourceStats, error) {
			return ingest.ReadJest(ctx, strings.NewReader(`{"testResults":[{"name":"f","assertionResults":[{"title":"a","status":"pending"}]}]}`), nothing)
		},
	} {
		if _, err := read(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s: err = %v, want the context's", name, err)
		}
	}
}

// A go test stream that stays open and keeps writing is read no further
// once ctx ends.
func TestReadGoTestStopsOnAnOpenStream(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	defer pr.Close()
	writing := make(chan struct{})
	go func() {
		defer close(writing)
		for {
			if _, err := pw.Write([]byte("still building...\n")); err != nil {
				return // the reader is gone
			}
			time.Sleep(time.Millisecond)
		}
	}()
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := ingest.ReadGoTest(ctx, pr, ingest.RecorderFunc(func(context.Context, ingest.Result) error { return nil }), ingest.GoTestOptions{})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("err = %v, want the context's", err)
		}
	case <-time.After(5 * time.Second):
		pr.CloseWithError(errors.New("test over")) // ends the read and the writer
		<-done
		t.Fatal("ReadGoTest still reading 5 s after its context ended")
	}
	pr.Close()
	<-writing
}

package ingest

import "context"

// A Recorder receives results from a source; *Reporter is one. A source
// redacts text it cuts to size before the cut, with a Reporter's own
// rules (its client's key, its run's secrets and its Redact hook) when it
// records into one; a Recorder that forwards to a Reporter (a tee, a
// filter) gets them too by a method Unwrap() Recorder returning it
// (one: a tee into two Reporters gets one's secrets), asked before a
// failing result whose text a source may cut is recorded, as
// http.ResponseController unwraps a ResponseWriter. Any other Recorder
// gets text cut by the built-in rules only: one that knows a secret only
// by its value may then keep a piece of it at an edge of the cut.
type Recorder interface {
	Record(ctx context.Context, r Result) error
}

// RecorderFunc adapts a function to Recorder.
type RecorderFunc func(ctx context.Context, r Result) error

// Record calls f.
func (f RecorderFunc) Record(ctx context.Context, r Result) error { return f(ctx, r) }

// SourceStats counts what a source read. Skipped tests are counted here and
// never sent: the one rule for every source is that a skipped (or pending,
// todo, disabled) test is neither a pass nor a failure, so it is not an
// iteration of the run.
type SourceStats struct {
	Passed, Failed, Skipped int
	// PackageFailures counts failing iterations made for failures outside
	// any test (go test: build failures, panics and timeouts).
	PackageFailures int
	// Events counts decoded events (go test) or test cases (files).
	Events int
	// Passthrough counts input lines that were not events (go test).
	Passthrough int
}

// Output bounds for one test's kept output: a head and a tail, with a
// truncation marker between them.
const (
	DefaultOutputHead = 4 << 10
	DefaultOutputTail = 4 << 10
)

// ctxDone returns ctx's error once it has ended: the sources check it
// between lines or test cases, so a cancelled read stops even when nothing
// it reads is recorded (skips, plain output), which is where ctx would
// otherwise be looked at.
func ctxDone(ctx context.Context) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
		return nil
	}
}

package ingest

import (
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/shared"
)

// ReporterOptions configure a Reporter. Only Run.SuiteName is needed; the
// zero value of every other field gets the default named on it.
type ReporterOptions struct {
	// Project is the project id; default DefaultProject.
	Project string
	// Run describes the run. Run.ExternalRunID defaults to ExternalRunID's
	// choice (PROJECTOPS_EXTERNAL_RUN_ID, the CI job, else random) and
	// Run.CI to DetectCI.
	Run RunParams
	// ChunkSize and ChunkBytes bound one request: at most ChunkSize results
	// (default 200) and ChunkBytes of JSON (default 1 MiB). A single result
	// over the byte limit is truncated, with a visible marker, to fit.
	ChunkSize, ChunkBytes int
	// Concurrency bounds the chunks in flight (default 2). While the
	// service answers 429 the reporter sends one chunk at a time.
	Concurrency int
	// SpoolDir keeps every chunk until the service stored it, so a failed
	// or killed run can be finished with Resume (projectops report resume).
	// Default: DefaultSpoolDir. NoSpool turns spooling off.
	SpoolDir string
	NoSpool  bool
	// Strict makes Record, Flush and Close return reporting failures.
	// Without it a reporting failure is logged (the results stay in the
	// spool) and never fails the caller, so it cannot change a test run's
	// exit status. Invalid input is an error either way.
	Strict bool
	// Redact, when set, rewrites every text field of every result (title,
	// query, error, expected output, trace, strings in metadata, error
	// details and tool-call arguments) before the built-in rules, which
	// remove the client's API key, any sk_ token, the values of
	// Authorization, Cookie, API-key (any spelling) and X-Auth-Token
	// headers (name/value pairs such as a HAR's included), every cookie
	// value in a cookies list, bearer tokens, URL credentials and a tunnel
	// URL's ?k= secret. Widget HTML, inline or uploaded, goes through the
	// built-in rules only. Text a source cut to size for the Reporter (see
	// Recorder) it sees twice: the text before the cut (whole, or its head
	// and tail with 4 KiB beyond each), before the built-in rules; then the
	// cut text, which those rules have already redacted. So it should be
	// idempotent (replace; do not append, count or escape). A field the
	// Reporter cuts to fit a chunk it sees whole, once. A Reporter calls it
	// one call at a time (two Reporters sharing a hook may overlap).
	Redact func(string) string
	// Progress, when set, is called as chunks are cut and stored, from the
	// upload goroutines too: it must be safe for concurrent use.
	Progress func(Progress)
	// Logger receives warnings about reporting failures; default
	// slog.Default().
	Logger *slog.Logger
	// Getenv reads the environment; default os.Getenv.
	Getenv func(string) string
	// RequestOptions apply to every request the reporter sends, as a
	// method's own options do (option.WithHeader, WithRequestTimeout,
	// WithMaxRetries). Those naming one call (WithIdempotencyKey,
	// WithResponseInto) and the client's own are refused by NewReporter,
	// which keeps a copy of the slice: reusing it afterwards changes nothing.
	RequestOptions []option.RequestOption
}

// Progress is a snapshot of a reporter's work.
type Progress struct {
	Recorded, Sent, InFlight, Chunks int
	Throttled                        bool
}

// Outcome is what Close reports.
type Outcome struct {
	// Run is the service's answer; nil when reporting failed.
	Run *RunResult
	// Local counts what was recorded, whatever the service said.
	Local Summary
	// Recorded counts the results Record took; Sent those the service
	// acknowledged (stored, or skipped as stored already).
	Recorded, Sent int
	// Truncated counts the results cut to fit a chunk; Chunks the chunks
	// cut.
	Truncated, Chunks int
	// SpoolPath names the spool file left behind for Resume ("" when
	// everything was stored).
	SpoolPath string
	// Err is the reporting failure, if any (returned by Close too when
	// Strict).
	Err error
	// Reused is set when the run's external id named a run that was
	// already complete (an earlier report under the same id): it is left
	// as it is, so retries and Resume never duplicate rows, but none of
	// the results recorded here were stored (Sent counts none of them) and
	// Run is that earlier run. Known on the chunked flow only: a one-shot
	// report call is answered with the run's state whether it created the
	// run or found it complete, so there Reused stays false and Sent counts
	// every result; a Run.Summary that differs from Local is the sign.
	Reused bool
}

// ReportingError is a failure to deliver results. The results that were
// not stored are in SpoolPath (when spooling is on).
type ReportingError struct {
	Err       error
	SpoolPath string
}

// Error says what failed and how to send the spooled results.
func (e *ReportingError) Error() string {
	if e.Err == nil { // a zero value, as errors.As leaves a target
		return "projectops: reporting failed"
	}
	if e.SpoolPath == "" {
		return "projectops: reporting failed (no spool: results were lost): " + e.Err.Error()
	}
	if ae, ok := errors.AsType[*shared.Error](e.Err); ok && ae.StatusCode != 0 && !ae.Temporary() && ae.Code != shared.CodeConflict {
		// A refusal (a key, a project, a body): resume re-sends the same
		// run to the same project, so it helps only once that is fixed. A
		// conflict (the run ended meanwhile) resume settles itself: the
		// results go to a run of their own.
		return fmt.Sprintf("projectops: reporting failed; the service refused the results, kept in %s "+
			"(\"projectops report resume --spool %s\" re-sends them as they are, to the same project: fix the cause first, or delete the file): %v",
			e.SpoolPath, filepath.Dir(e.SpoolPath), e.Err)
	}
	return fmt.Sprintf("projectops: reporting failed; results kept in %s (send them with: projectops report resume --spool %s): %v",
		e.SpoolPath, filepath.Dir(e.SpoolPath), e.Err)
}

// Unwrap returns the underlying failure.
func (e *ReportingError) Unwrap() error { return e.Err }

// ErrReporterClosed is returned by Record and Flush after Close.
var ErrReporterClosed = errors.New("projectops: ingest: reporter is closed")

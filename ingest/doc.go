// Package ingest sends the results of test and eval runs executed outside
// the service into a run of a project (/projects/{projectId}/eval-ingest):
// the five routes on Service (Report, StartRun, AppendIterations,
// FinalizeRun, UploadURL plus UploadArtifact), and a Reporter that makes
// this SDK a test reporter.
//
// # Reporter
//
// A Reporter takes results one at a time (Record) and decides how to send
// them: a single report call when the whole run, its fields included, fits
// one chunk (200 results and 1 MiB by default), otherwise runs/start, chunks
// of runs/iterations sent by up to two goroutines (one while the service
// answers 429), and runs/finalize on Close. Memory is the chunk size × (the
// concurrency + 1) whatever the run's length, plus the bodies of answered
// chunks the HTTP transport has not closed yet, plus at most about 40 bytes
// per distinct title (and external case id) recorded without an
// ExternalIterationID: the count of its occurrences, which its derived id
// needs. Every result carries an externalIterationId (derived
// deterministically when missing) and the run an externalRunId (explicit,
// PROJECTOPS_EXTERNAL_RUN_ID, the CI job, or random), so retried chunks and
// re-runs never duplicate rows: the routes are idempotent and retried on
// 429, 5xx and network errors, never on 400, 401, 403 or 404. A result's
// Metadata may nest values (predicate verdicts, scores), as the service
// accepts since 2026-08-05, though its 07-09 reference documents scalars.
//
// Every chunk is written to a spool file before it is sent and
// acknowledged after, so a failed or killed reporter loses nothing: Resume
// (projectops report resume --spool DIR) re-sends what was not stored and
// finalizes, delivering every result at least once (a duplicate at worst,
// never a loss), however often it is stopped. A damaged spool line costs
// only its own record (a damaged first line, the run record, costs the
// whole file: nothing of it can be sent): the rest is delivered, the
// damage returned as a *SpoolDamageError, and the file moved aside for
// inspection. Without ReporterOptions.Strict a reporting failure never fails
// the caller. Secrets are removed before anything is spooled or sent
// (widget HTML uploaded through an upload URL included): the client's API
// key, the run's secrets (its replay configs' tokens, client secrets and
// URL secrets, its host config's credential and key-like header values),
// sk_ tokens, the values of Authorization, Cookie, API-key (any
// spelling) and X-Auth-Token headers (name/value pairs such as a HAR's
// included), every cookie value in a cookies list, bearer tokens, URL
// credentials, a tunnel URL's ?k= secret, plus ReporterOptions.Redact.
//
// # Sources
//
// ReadGoTest reads go test -json streams, ReadJUnit JUnit XML, ReadJest
// and ReadVitest their JSON reports; all stream into any Recorder (a
// Reporter). The rule for skipped tests is the same everywhere: they are
// counted in SourceStats and not sent, so they never count as failures.
// From inside a Go test, a TBRecorder records an eval result durably; the run
// is delivered once all packages are done, by Resume.
//
// The projectopstest double serves the five routes, so everything here can
// be tried without a key, as the examples do.
package ingest

package evals

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"

	"github.com/projectops/projectops-go/shared"
)

// Status is the status of a run or an iteration.
type Status string

// Run and iteration statuses. Pending and running are in flight; the others
// are terminal. TimedOut applies to runs only.
const (
	StatusPending   Status = "pending"
	StatusRunning   Status = "running"
	StatusCompleted Status = "completed"
	StatusFailed    Status = "failed"
	StatusCancelled Status = "cancelled"
	StatusTimedOut  Status = "timed_out"
)

// Terminal reports whether a run in this status has finished: completed,
// failed, cancelled or timed out. An unknown status is not terminal.
func (s Status) Terminal() bool {
	switch s {
	case StatusCompleted, StatusFailed, StatusCancelled, StatusTimedOut:
		return true
	}
	return false
}

// Result is the verdict of a finished run or iteration. The reference
// documents passed and failed (empty until there is one); the service's
// own data types also allow pending, cancelled and timed_out here, which
// it passes through as stored, so read a run's state from its Status and
// treat any other Result as no verdict.
type Result string

// Results.
const (
	ResultPassed Result = "passed"
	ResultFailed Result = "failed"
)

// Run sources: SourceAPI tags runs created through this API, SourceSDK runs
// received through eval-ingest (package ingest), SourceUI runs started in
// the hosted app (and stored runs with no source, which the service reads
// as "ui"). Another value the service may add is kept as sent.
const (
	SourceAPI = "api"
	SourceSDK = "sdk"
	SourceUI  = "ui"
)

// ModelAPIKeys maps a provider ("anthropic", "openai", ...) to the API key
// used for its provider-native models. It is a secret: it never prints
// (every fmt verb, slog and encoding/json show the providers only; the
// request body of Runs.Create alone carries the keys) and the service never
// echoes it.
type ModelAPIKeys map[string]string

// String lists the providers, never the keys.
func (m ModelAPIKeys) String() string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return "ModelAPIKeys{" + strings.Join(names, ":[REDACTED] ") + redactTail(len(names)) + "}"
}

func redactTail(n int) string {
	if n == 0 {
		return ""
	}
	return ":[REDACTED]"
}

// GoString is String.
func (m ModelAPIKeys) GoString() string { return m.String() }

// Format makes every verb print String.
func (m ModelAPIKeys) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, m.String()) }

// LogValue logs the providers only: without it slog's JSON handler encodes
// the map with encoding/json, bypassing Format.
func (m ModelAPIKeys) LogValue() slog.Value { return slog.StringValue(m.String()) }

// MarshalJSON lists the providers with their keys redacted: encoding/json
// anywhere (slog's JSON handler on a nested value, a log line) never shows
// a key. Runs.Create sends them in clear.
func (m ModelAPIKeys) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	r := make(map[string]string, len(m))
	for k := range m {
		r[k] = "[REDACTED]"
	}
	return json.Marshal(r)
}

// secrets are the keys, which an error answer's text is cleaned of: a
// service or a proxy may quote the request body back.
func (m ModelAPIKeys) secrets() []string {
	keys := make([]string, 0, len(m))
	for _, k := range m {
		keys = append(keys, k)
	}
	return keys
}

// wireJSON sends model API keys in clear in request bodies.
var wireJSON = wire.Clear(func(m ModelAPIKeys) map[string]string { return m })

// RunParams creates a run: either SuiteID (a rerun of a stored suite, with
// ServerIDs optionally overriding its saved servers and Tests optionally
// upserted into it) or SuiteName with inline Tests and ServerIDs (a new
// suite). With Tests and no SuiteRerun (or with RefreshSnapshot), the
// service saves ServerIDs, and ServerNames when parallel to them, as the
// suite's server selection for its later runs.
type RunParams struct {
	SuiteID          string   `json:"suiteId,omitempty"`
	SuiteName        string   `json:"suiteName,omitempty"`
	SuiteDescription string   `json:"suiteDescription,omitempty"`
	Tests            []Test   `json:"tests,omitempty"`
	ServerIDs        []string `json:"serverIds,omitempty"`
	// ModelAPIKeys holds keys for provider-native (bring-your-own-key)
	// models. Never logged or echoed.
	ModelAPIKeys ModelAPIKeys  `json:"modelApiKeys,omitempty"`
	Notes        string        `json:"notes,omitempty"`
	PassCriteria *PassCriteria `json:"passCriteria,omitempty"`
	// IterationOverride replaces every test's Runs for this run (1 to 10).
	IterationOverride int `json:"iterationOverride,omitempty"`
	// IdempotencyKey (at most 256 characters, as UTF-16 counts them) names
	// this run request: a repeat with the same key returns the run it
	// started (Deduped). Runs.Create sends it as the Idempotency-Key header
	// too (which the service reads first) when it fits one (256 bytes);
	// without it, Create generates a key per call.
	IdempotencyKey string `json:"idempotencyKey,omitempty"`
	// RunGroupID is a display label grouping sibling runs; it carries no
	// quota or launch meaning. Newer versions of the service (the
	// 2026-08-22 reference) echo it in RunCreated; older ones accept and
	// ignore it.
	RunGroupID string `json:"runGroupId,omitempty"`

	// The fields below are documented by the 2026-08-22 reference; a
	// service at the 2026-07-09 reference ignores those saying so.

	// ServerNames are display names, parallel to ServerIDs.
	ServerNames []string `json:"serverNames,omitempty"`
	// SuiteRerun reruns the stored suite without upserting Tests into it
	// (a bare SuiteID without Tests is always a rerun).
	SuiteRerun bool `json:"suiteRerun,omitempty"`
	// EnvironmentID runs against one of the environments attached to the
	// suite SuiteID names, pinned to its revision at launch; it excludes
	// ServerIDs (the environment supplies the servers). Empty runs the
	// suite's only attached environment, if it has exactly one. The
	// 2026-07-09 service ignores it.
	EnvironmentID string `json:"environmentId,omitempty"`
	// NamedHostID runs against one host attached to the suite, whose
	// configuration supplies the servers (ServerIDs are not needed).
	NamedHostID string `json:"namedHostId,omitempty"`
	// CaseIDs narrows the run to these cases of the suite (all when
	// empty); the suite itself is unchanged. The service answers 404 when
	// none of them is the suite's.
	CaseIDs []string `json:"caseIds,omitempty"`
	// MatchOptionsOverride overrides, for this run only, the tool-call
	// matching of the suite and its cases (nil keeps theirs). The
	// 2026-08-22 service also takes another vocabulary for it (any,
	// in-order, exact; extraToolCalls; arguments) which says nothing more
	// and is not modelled.
	MatchOptionsOverride *MatchOptions `json:"matchOptionsOverride,omitempty"`
	// SkillsOverride is SkillsExclude or empty (the suite's skills). The
	// 2026-07-09 service ignores it.
	SkillsOverride SkillsOverride `json:"skillsOverride,omitempty"`
	// RefreshSnapshot changes the suite: it re-derives and stores the
	// suite's host configuration from this request's servers, for its
	// later runs too. Without it a rerun keeps the suite's snapshot.
	RefreshSnapshot bool `json:"refreshSnapshot,omitempty"`
}

// Format implements fmt.Formatter through a method-less copy printed with
// the same verb, so ModelAPIKeys goes through its own Format: without it
// fmt's bad-verb path (a *RunParams nested in a slice under %s) printed
// the keys raw.
func (p RunParams) Format(f fmt.State, verb rune) {
	type RunParams runParamsPlain
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), RunParams(p))
}

// runParamsPlain is RunParams without its methods, for Format.
type runParamsPlain RunParams

// LogValue logs what identifies the run request, never the model API keys
// (slog's JSON handler would otherwise encode them with encoding/json).
func (p RunParams) LogValue() slog.Value {
	return slog.GroupValue(slog.String("suiteId", p.SuiteID), slog.String("suiteName", p.SuiteName),
		slog.Any("serverIds", p.ServerIDs), slog.Int("tests", len(p.Tests)),
		slog.String("modelApiKeys", p.ModelAPIKeys.String()), slog.Int("iterationOverride", p.IterationOverride),
		slog.String("environmentId", p.EnvironmentID), slog.String("namedHostId", p.NamedHostID),
		slog.Int("caseIds", len(p.CaseIDs)))
}

// RunCreated is the 202 answer to Runs.Create: the run executes in the
// background; poll it with Runs.Get or Runs.Wait.
type RunCreated struct {
	RunID   string `json:"runId"`
	SuiteID string `json:"suiteId"`
	// Status is "running" for a new run (execution has been handed off;
	// Get may still show it pending) and the run's current status when
	// Deduped.
	Status Status `json:"status"`
	// Servers are the servers the run connects to (the suite's saved
	// selection on a plain rerun).
	Servers    []ServerRef `json:"servers,omitempty"`
	CaseUpsert CaseUpsert  `json:"caseUpsert"`
	// Deduped is true when the service recognised the Idempotency-Key of
	// an earlier request and returned that request's run.
	Deduped bool `json:"deduped,omitempty"`
	// RunGroupID echoes RunParams.RunGroupID. Sent by newer versions of
	// the service (the 2026-08-22 reference); empty otherwise.
	RunGroupID string `json:"runGroupId,omitempty"`
	// Environment is the environment revision the run is pinned to. Sent
	// by newer versions of the service (the 2026-08-22 reference), as null
	// for a run over a saved server selection; nil either way otherwise.
	Environment *RunEnvironment `json:"environment,omitempty"`
}

// RunEnvironment is the project environment a run is pinned to, at the
// revision resolved when it launched (newer versions of the service).
type RunEnvironment struct {
	ID   string `json:"id"`
	Name string `json:"name,omitempty"`
	// Revision is the environment revision the run executed against; 0
	// when the service sends none.
	Revision int `json:"revision,omitempty"`
}

// Run score integrity verdicts (Run.ScoreIntegrity), sent by newer
// versions of the service. An empty ScoreIntegrity is no verdict at all
// (an older service, or one that predates integrity checking): a score
// gate must treat it like ScoreIntegrityInvalid.
const (
	ScoreIntegrityValid   = "valid"
	ScoreIntegrityInvalid = "invalid"
)

// RunJudges are the advisory LLM graders of a run, keyed by judge, as
// newer versions of the service send them on Runs.Get. Each is kept as the
// service sent it (an object with status, errorCode, summary, generatedAt,
// modelUsed, threshold and cases in the 2026-08-22 reference), nil when
// absent.
type RunJudges struct {
	GoalCompletion json.RawMessage `json:"goalCompletion,omitempty"`
	Groundedness   json.RawMessage `json:"groundedness,omitempty"`
}

// Summary counts a run's iterations. While the run is in flight Total is
// the number of iterations planned and Passed plus Failed those finished.
type Summary struct {
	Total    int     `json:"total"`
	Passed   int     `json:"passed"`
	Failed   int     `json:"failed"`
	PassRate float64 `json:"passRate"`
}

// Run is an eval run.
type Run struct {
	ID        string   `json:"id"`
	SuiteID   string   `json:"suiteId"`
	RunNumber int      `json:"runNumber,omitempty"`
	Status    Status   `json:"status"`
	Result    Result   `json:"result,omitempty"`
	Summary   *Summary `json:"summary,omitempty"`
	// Source is SourceAPI for runs created here, SourceSDK for ingested
	// runs, SourceUI for runs started in the hosted app.
	Source      string        `json:"source"`
	Notes       string        `json:"notes,omitempty"`
	CreatedAt   shared.Millis `json:"createdAt"`
	CompletedAt shared.Millis `json:"completedAt,omitempty"`

	// The fields below are sent by newer versions of the service (the
	// 2026-08-22 reference) and are zero on a service that does not.

	// ScoreIntegrity is ScoreIntegrityValid or ScoreIntegrityInvalid;
	// empty (null or absent) is no verdict, which a score gate must treat
	// like invalid.
	ScoreIntegrity string `json:"scoreIntegrity,omitempty"`
	// Environment is the environment revision the run is pinned to; nil
	// for a run over a saved server selection, and from an older service.
	Environment *RunEnvironment `json:"environment,omitempty"`
	// ExecutionEngine is "emulated" or "harness:<id>"; empty means the
	// engine is unknown (never read it as emulated).
	ExecutionEngine string `json:"executionEngine,omitempty"`
	// Judges are the advisory graders (Runs.Get only; lists omit them).
	Judges *RunJudges `json:"judges,omitempty"`
	// Insights is the service's insights envelope as sent (Runs.Get only);
	// nil reads like an envelope with status "not_available".
	Insights json.RawMessage `json:"insights,omitempty"`
}

// Passed reports whether the run finished with the passed result.
func (r *Run) Passed() bool { return r != nil && r.Result == ResultPassed }

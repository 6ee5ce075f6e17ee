package ingest

import (
	"encoding/json"

	"github.com/projectops/projectops-go/shared"
)

// Result is one finished test case or eval iteration, as sent to the
// service (the reference's EvalResultInput). CaseTitle is required; Passed
// is always sent.
type Result struct {
	CaseTitle string `json:"caseTitle"`
	Query     string `json:"query,omitempty"`
	Passed    bool   `json:"passed"`
	// DurationMs is the wall time in milliseconds.
	DurationMs        float64    `json:"durationMs,omitempty"`
	Provider          string     `json:"provider,omitempty"`
	Model             string     `json:"model,omitempty"`
	ExpectedToolCalls []ToolCall `json:"expectedToolCalls,omitempty"`
	ActualToolCalls   []ToolCall `json:"actualToolCalls,omitempty"`
	Tokens            *Tokens    `json:"tokens,omitempty"`
	// Error is the failure message (for go test: the test's output, kept
	// as a bounded head and tail).
	Error string `json:"error,omitempty"`
	// ErrorDetails is more text about the failure (a stack, a diff): a
	// string, as the service declares it.
	ErrorDetails string `json:"errorDetails,omitempty"`
	// Trace is a string, a list of {role, content} messages or an object
	// with messages, spans, prompts or raw; it is sent as given.
	Trace json.RawMessage `json:"trace,omitempty"`
	// ExternalIterationID identifies the iteration within its run: the
	// service stores a given id once, so re-sending a chunk never duplicates
	// a row. The Reporter derives one when it is empty.
	ExternalIterationID string `json:"externalIterationId,omitempty"`
	ExternalCaseID      string `json:"externalCaseId,omitempty"`
	// CaseID, when set with ExternalCaseID, must equal it.
	CaseID string `json:"caseId,omitempty"`
	// Metadata holds facts about the result, any JSON values: nested ones
	// too, such as the predicate verdicts (metadata.predicates) and scores
	// the service's own reporter sends, which the service accepts since
	// 2026-08-05 (the 07-09 reference documents strings, numbers and
	// booleans only). A value encoding/json cannot encode (NaN, a channel)
	// is Record's VALIDATION_ERROR, naming metadata.<key>, sent nowhere.
	Metadata       map[string]any `json:"metadata,omitzero"`
	IsNegativeTest bool           `json:"isNegativeTest,omitempty"`
	ExpectedOutput string         `json:"expectedOutput,omitempty"`
	// AdvancedConfig is the case's advanced settings (system prompt,
	// temperature, tool choice, ...), any keys. An empty one is left out,
	// as the service's own reporter leaves it: it is part of the key the
	// service groups a case's history by.
	AdvancedConfig map[string]any `json:"advancedConfig,omitempty"`
	// WidgetSnapshots are the MCP Apps widgets the case rendered. A
	// snapshot's WidgetHTML that would make the result too large for a
	// chunk is uploaded through an upload URL by the Reporter and sent as
	// WidgetHTMLBlobID instead (the service's own reporter uploads every
	// inline WidgetHTML, whatever the result's size).
	WidgetSnapshots []WidgetSnapshot `json:"widgetSnapshots,omitempty"`
	// MatchOptions tells how actual tool calls were matched to expected
	// ones.
	MatchOptions *MatchOptions `json:"matchOptions,omitempty"`
}

// WidgetProtocolMCPApps is the only widget protocol the service knows.
const WidgetProtocolMCPApps = "mcp-apps"

// WidgetSnapshot is one rendered MCP Apps widget of a result.
type WidgetSnapshot struct {
	ToolCallID  string `json:"toolCallId"`
	ToolName    string `json:"toolName"`
	Protocol    string `json:"protocol"` // WidgetProtocolMCPApps (the Reporter fills it when empty)
	ServerID    string `json:"serverId"`
	ResourceURI string `json:"resourceUri"`
	// ToolMetadata is the tool's _meta; sent as {} when nil.
	ToolMetadata map[string]any `json:"toolMetadata"`
	// WidgetCSP and WidgetPermissions are null when the widget declared
	// none.
	WidgetCSP         map[string]any `json:"widgetCsp"`
	WidgetPermissions map[string]any `json:"widgetPermissions"`
	WidgetPermissive  bool           `json:"widgetPermissive"`
	PrefersBorder     bool           `json:"prefersBorder"`
	// WidgetHTML is the widget's page inline; WidgetHTMLBlobID names it
	// stored through UploadArtifact instead. The Reporter and TBRecorder
	// send a snapshot with a WidgetHTMLBlobID without its WidgetHTML, as
	// the service's reporter does, and never upload over a caller's id.
	WidgetHTML           string `json:"widgetHtml,omitempty"`
	WidgetHTMLBlobID     string `json:"widgetHtmlBlobId,omitempty"`
	InjectedOpenAICompat *bool  `json:"injectedOpenAiCompat,omitempty"`
}

// Tool-call order and argument matching modes of MatchOptions, the
// shared package's (one vocabulary serves ingest and evals).
const (
	ToolCallOrderIgnore     = shared.ToolCallOrderIgnore
	ToolCallOrderStrict     = shared.ToolCallOrderStrict
	ToolCallOrderSuperset   = shared.ToolCallOrderSuperset
	ArgumentMatchingExact   = shared.ArgumentMatchingExact
	ArgumentMatchingPartial = shared.ArgumentMatchingPartial
	ArgumentMatchingIgnore  = shared.ArgumentMatchingIgnore
)

// MatchOptions is how a result's actual tool calls were matched to its
// expected ones: ToolCallOrder is a ToolCallOrder constant and
// ArgumentMatching an ArgumentMatching constant. It is the type evals uses
// for a test's and a run's match options too.
type MatchOptions = shared.MatchOptions

// ToolCall is an expected or actual tool call.
type ToolCall struct {
	ToolName  string         `json:"toolName"`
	Arguments map[string]any `json:"arguments,omitzero"`
}

// Tokens counts the tokens an iteration used.
type Tokens struct {
	Input  int64 `json:"input,omitempty"`
	Output int64 `json:"output,omitempty"`
	Total  int64 `json:"total,omitempty"`
}

// CIMetadata describes the CI job a run came from. DetectCI fills it from
// the environment.
type CIMetadata struct {
	Provider   string `json:"provider,omitempty"`
	PipelineID string `json:"pipelineId,omitempty"`
	JobID      string `json:"jobId,omitempty"`
	RunURL     string `json:"runUrl,omitempty"`
	Branch     string `json:"branch,omitempty"`
	CommitSHA  string `json:"commitSha,omitempty"`
}

// PassCriteria decides a finalized run's result.
type PassCriteria struct {
	// MinimumPassRate is a percentage (0–100); the run passes when its
	// pass rate × 100 is at least this. The service's default is 100: a
	// nil *PassCriteria leaves it.
	MinimumPassRate float64 `json:"minimumPassRate"`
}

// RunParams describes a run: the body of runs/start, and of report
// without its results.
type RunParams struct {
	SuiteName        string        `json:"suiteName"`
	SuiteDescription string        `json:"suiteDescription,omitempty"`
	ServerNames      []string      `json:"serverNames,omitempty"`
	Notes            string        `json:"notes,omitempty"`
	PassCriteria     *PassCriteria `json:"passCriteria,omitempty"`
	// ExternalRunID identifies the run: starting or reporting the same id
	// again reuses the run instead of creating another.
	ExternalRunID      string      `json:"externalRunId"`
	Framework          string      `json:"framework,omitempty"`
	CI                 *CIMetadata `json:"ci,omitempty"`
	ExpectedIterations int         `json:"expectedIterations,omitempty"`
	Tags               []string    `json:"tags,omitempty"`
	// ServerReplayConfigs let the service replay the run's servers. They
	// carry tokens and a client secret: never printed, logged or spooled
	// in clear (see ServerReplayConfig).
	ServerReplayConfigs []ServerReplayConfig `json:"serverReplayConfigs,omitempty"`
	// EvaluationConfigHash identifies what was evaluated: reusing an
	// ExternalRunID with a different hash is a CONFLICT.
	EvaluationConfigHash string `json:"evaluationConfigHash,omitempty"`
	// HostConfig is the host config the run used (report and runs/start
	// only). The SDK sends it without the runtime server ids, their
	// overrides and the computer, and sets HostConfigHash to its content
	// address, as the service's reporter does: the service recomputes the
	// hash and refuses a mismatch.
	HostConfig HostConfig `json:"hostConfig,omitempty"`
	// HostConfigHash is computed by the SDK; leave it empty. With a
	// HostConfig, a value set here is replaced; without one, it is a
	// VALIDATION_ERROR (field hostConfigHash) from Report, StartRun and
	// NewReporter, sent nowhere: the pair travels whole or not at all.
	HostConfigHash string `json:"hostConfigHash,omitempty"`
}

// ReportParams is the body of the one-shot report: a run and all its
// results.
type ReportParams struct {
	RunParams
	Results []Result `json:"results"`
}

// AppendParams is the body of runs/iterations.
type AppendParams struct {
	RunID   string   `json:"runId"`
	Results []Result `json:"results"`
}

// FinalizeParams is the body of runs/finalize.
type FinalizeParams struct {
	RunID         string `json:"runId"`
	ExternalRunID string `json:"externalRunId"`
}

// Summary counts a run's iterations. PassRate is a fraction (0–1).
type Summary struct {
	Total    int     `json:"total"`
	Passed   int     `json:"passed"`
	Failed   int     `json:"failed"`
	PassRate float64 `json:"passRate"`
}

// Run statuses and results the ingest routes answer.
const (
	StatusRunning   = "running"
	StatusCompleted = "completed"
	StatusFailed    = "failed"
	ResultPending   = "pending"
	ResultPassed    = "passed"
	ResultFailed    = "failed"
)

// RunResult answers report and runs/finalize (and runs/start, with Reused).
type RunResult struct {
	OK        bool   `json:"ok"`
	SuiteID   string `json:"suiteId"`
	RunID     string `json:"runId"`
	ProjectID string `json:"projectId,omitempty"`
	// Reused is set by runs/start when ExternalRunID named an existing run.
	Reused  bool     `json:"reused,omitempty"`
	Status  string   `json:"status"`
	Result  string   `json:"result"`
	Summary *Summary `json:"summary"`
}

// AppendResult answers runs/iterations: Inserted new rows, Skipped rows
// whose ExternalIterationID the run already had, Total rows in the run.
type AppendResult struct {
	OK       bool `json:"ok"`
	Inserted int  `json:"inserted"`
	Skipped  int  `json:"skipped"`
	Total    int  `json:"total"`
}

// UploadURL answers artifacts/upload-url: a short-lived, single-use URL to
// POST one artifact to, without the API key.
type UploadURL struct {
	OK        bool   `json:"ok"`
	UploadURL string `json:"uploadUrl"`
}

// Upload answers the POST to an upload URL.
type Upload struct {
	StorageID string `json:"storageId"`
}

package evals

import (
	"encoding/json"

	"github.com/projectops/projectops-go/shared"
)

// ToolCall is a tool call, expected or actually made.
type ToolCall struct {
	ToolName  string         `json:"toolName"`
	Arguments map[string]any `json:"arguments,omitzero"`
	// ServerID is the saved server the call went to (actual calls).
	ServerID string `json:"serverId,omitempty"`
	// IsError is true when the tool reported a failure in its result.
	IsError bool `json:"isError,omitempty"`
}

// Usage is structured token usage.
type Usage struct {
	InputTokens       int `json:"inputTokens"`
	OutputTokens      int `json:"outputTokens"`
	TotalTokens       int `json:"totalTokens"`
	CachedInputTokens int `json:"cachedInputTokens,omitempty"`
	ReasoningTokens   int `json:"reasoningTokens,omitempty"`
}

// Iteration is one execution of one test of a run.
type Iteration struct {
	ID              string        `json:"id"`
	TestCaseID      string        `json:"testCaseId,omitempty"`
	Title           string        `json:"title,omitempty"`
	IterationNumber int           `json:"iterationNumber"`
	Status          Status        `json:"status"`
	Result          Result        `json:"result,omitempty"`
	Model           string        `json:"model,omitempty"`
	Provider        string        `json:"provider,omitempty"`
	StartedAt       shared.Millis `json:"startedAt,omitempty"`
	// DurationMs is the iteration's wall-clock latency in milliseconds.
	// It is nil while the service sends null: until the iteration is
	// terminal (and for one cancelled before it started). A finished
	// iteration's 0 is a value, not nil. nil encodes back as null.
	DurationMs *float64 `json:"durationMs"`
	// TokensUsed is the iteration's total token count. It is nil when the
	// service sends null (no usage: an iteration that never ran, a
	// cancelled one, an ingested result without tokens); a model-free
	// iteration (toolCall steps only) that used no tokens has 0, not nil.
	// nil encodes back as null.
	TokensUsed *float64 `json:"tokensUsed"`
	// Usage is nil when the service has none (an iteration that never
	// ran, a cancelled one).
	Usage             *Usage     `json:"usage,omitempty"`
	ActualToolCalls   []ToolCall `json:"actualToolCalls"`
	ExpectedToolCalls []ToolCall `json:"expectedToolCalls"`
	Error             string     `json:"error,omitempty"`

	// The fields below are sent by newer versions of the service (the
	// 2026-08-22 reference) and are zero on a service that does not.

	// Scores are the per-scorer verdicts; nil when the run predates
	// scoring or the stored scores failed validation.
	Scores []ScoreResult `json:"scores,omitempty"`
	// EvaluationConfig is the scorer definitions snapshot Scores were
	// produced under ({hash, definitions}), kept as sent; present exactly
	// when Scores is (a JSON null reads as the literal null).
	EvaluationConfig json.RawMessage `json:"evaluationConfig,omitempty"`
	// ScoreIntegrity is "score_integrity_invalid" when the service
	// downgraded the iteration's verdict over malformed gating score
	// evidence, else empty.
	ScoreIntegrity string `json:"scoreIntegrity,omitempty"`
}

// IterationsParams pages Runs.ListIterations and Runs.AllIterations.
type IterationsParams struct {
	// Limit is the page size, 1 to MaxIterationsLimit (service default 50);
	// one outside that is refused before a request is sent.
	Limit int
	// Cursor continues from a previous page's NextCursor.
	Cursor string
}

// StepsParams are the options of ListSteps and AllSteps.
type StepsParams struct {
	// Cursor continues from a previous page's NextCursor.
	Cursor string
}

// MaxIterationsLimit is the largest page of iterations.
const MaxIterationsLimit = 200

// StepStatus is the verdict of one authored step.
type StepStatus string

// Step verdicts.
const (
	StepOK      StepStatus = "ok"
	StepFail    StepStatus = "fail"
	StepSkipped StepStatus = "skipped"
	StepPending StepStatus = "pending"
)

// StepResult is the verdict of one authored step of an iteration.
type StepResult struct {
	StepID    string     `json:"stepId"`
	StepIndex int        `json:"stepIndex"`
	Kind      StepKind   `json:"kind"`
	Status    StepStatus `json:"status"`
	Reason    string     `json:"reason,omitempty"`
	// Evidence is omitted when the step produced none (for example when
	// the iteration kept no trace).
	Evidence map[string]any `json:"evidence,omitzero"`
}

package evals

import (
	"encoding/json"

	"github.com/projectops/projectops-go/shared"
)

// ToolCall is a tool call, expected or actually made.
type ToolCall struct {
	ToolName  string         `json:"toolName"`
	Arguments map[string]any `json:"arguments,omitempty"`
	// ServerID is the saved server the call went to (actual calls).
	ServerID string `json:"serverId,omitempty"`
	// IsError is true when the tool reported a failure in its result.
	IsError bool `json:"isError,omitempty"`
}

// Usage is structured token usage.
type Usage struct {
	InputTokens     int `json:"inputTokens"`
	OutputTokens    int `json:"outputTokens"`
	TotalTokens     int `json:"totalTokens"`
	CachedTokens    int `json:"cachedInputTokens,omitempty"`
	ReasoningTokens int `json:"reasoningTokens,omitempty"`
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
	// DurationMs is the iteration's latency, set once it finished.
	DurationMs        float64    `json:"durationMs,omitempty"`
	TokensUsed        float64    `json:"tokensUsed,omitempty"`
	Usage             *Usage     `json:"usage,omitempty"`
	ActualToolCalls   []ToolCall `json:"actualToolCalls"`
	ExpectedToolCalls []ToolCall `json:"expectedToolCalls"`
	Error             string     `json:"error,omitempty"`
}

// IterationsParams pages Runs.ListIterations and Runs.AllIterations.
type IterationsParams struct {
	// Limit is the page size, 1 to MaxIterationsLimit (service default 50).
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
	Evidence map[string]any `json:"evidence,omitempty"`
}

// Trace is an iteration's trace envelope. It is an open document: the
// fields below are the ones this SDK knows, and Raw holds the whole
// document as received.
type Trace struct {
	Messages []TraceMessage   `json:"messages,omitempty"`
	Prompts  []PromptAnalysis `json:"prompts,omitempty"`
	Spans    []Span           `json:"spans,omitempty"`
	Raw      json.RawMessage  `json:"-"`
}

// UnmarshalJSON keeps the raw document alongside the known fields.
func (t *Trace) UnmarshalJSON(b []byte) error {
	type plain Trace
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		return err
	}
	*t = Trace(p)
	t.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// TraceMessage is one conversation message.
type TraceMessage struct {
	// Role is "user", "assistant" or "tool".
	Role      string     `json:"role"`
	Content   string     `json:"content,omitempty"`
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolName names the tool whose result a "tool" message carries.
	ToolName string `json:"toolName,omitempty"`
	IsError  bool   `json:"isError,omitempty"`
}

// PromptAnalysis compares the tool calls expected after a prompt step with
// those made.
type PromptAnalysis struct {
	PromptIndex       int        `json:"promptIndex"`
	StepID            string     `json:"stepId,omitempty"`
	Prompt            string     `json:"prompt,omitempty"`
	ExpectedToolCalls []ToolCall `json:"expectedToolCalls"`
	ActualToolCalls   []ToolCall `json:"actualToolCalls"`
	Missing           []ToolCall `json:"missing,omitempty"`
	Unexpected        []ToolCall `json:"unexpected,omitempty"`
	Passed            bool       `json:"passed"`
}

// Span is a timed part of an iteration: a step, a model call or a tool call.
type Span struct {
	ID       string `json:"id"`
	ParentID string `json:"parentId,omitempty"`
	Name     string `json:"name"`
	// Category is "step", "llm", "tool" or "error".
	Category     string  `json:"category"`
	StartMs      float64 `json:"startMs"`
	EndMs        float64 `json:"endMs"`
	StepIndex    *int    `json:"stepIndex,omitempty"`
	Status       string  `json:"status,omitempty"`
	ToolName     string  `json:"toolName,omitempty"`
	ServerID     string  `json:"serverId,omitempty"`
	ModelID      string  `json:"modelId,omitempty"`
	InputTokens  int     `json:"inputTokens,omitempty"`
	OutputTokens int     `json:"outputTokens,omitempty"`
	TotalTokens  int     `json:"totalTokens,omitempty"`
}

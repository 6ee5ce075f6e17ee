package evals

// StepKind is the kind of an authored test step.
type StepKind string

// The step kinds.
const (
	// KindPrompt is a user message: a model turn that may call tools.
	KindPrompt StepKind = "prompt"
	// KindToolCall is a deterministic, model-free tool call.
	KindToolCall StepKind = "toolCall"
	// KindInteract is a widget action.
	KindInteract StepKind = "interact"
	// KindAssert is an assertion over what happened so far.
	KindAssert StepKind = "assert"
)

// AssertToolCalledWith is the assertion type checking that a tool was
// called with (at least) the given arguments.
const AssertToolCalledWith = "toolCalledWith"

// Assertion is the assertion of an assert step. For AssertToolCalledWith,
// ToolName names the tool and Args the arguments the call must have carried
// (every key given must match; keys not given are not checked).
type Assertion struct {
	Type     string         `json:"type"`
	ToolName string         `json:"toolName,omitempty"`
	Args     map[string]any `json:"args,omitempty"`
}

// Step is one authored test step. ID is required and unique within its
// test; which other fields apply depends on Kind. The constructors
// PromptStep, ToolCallStep, InteractStep and AssertCalledWith fill them.
type Step struct {
	ID   string   `json:"id"`
	Kind StepKind `json:"kind"`
	// Prompt is the user message of a prompt step.
	Prompt string `json:"prompt,omitempty"`
	// ServerName optionally names the saved server owning ToolName (toolCall).
	ServerName string `json:"serverName,omitempty"`
	// ToolName is the tool of a toolCall or interact step.
	ToolName string `json:"toolName,omitempty"`
	// Arguments are the arguments of a toolCall step.
	Arguments map[string]any `json:"arguments,omitempty"`
	// Action is the widget action of an interact step.
	Action map[string]any `json:"action,omitempty"`
	// Assertion is the assertion of an assert step.
	Assertion *Assertion `json:"assertion,omitempty"`
}

// PromptStep returns a prompt step.
func PromptStep(id, prompt string) Step { return Step{ID: id, Kind: KindPrompt, Prompt: prompt} }

// ToolCallStep returns a step calling tool with args, without a model.
func ToolCallStep(id, tool string, args map[string]any) Step {
	return Step{ID: id, Kind: KindToolCall, ToolName: tool, Arguments: args}
}

// InteractStep returns a widget-action step.
func InteractStep(id string, action map[string]any) Step {
	return Step{ID: id, Kind: KindInteract, Action: action}
}

// AssertCalledWith returns an assert step checking that tool was called
// with args (a subset match; nil checks the name only).
func AssertCalledWith(id, tool string, args map[string]any) Step {
	return Step{ID: id, Kind: KindAssert, Assertion: &Assertion{Type: AssertToolCalledWith, ToolName: tool, Args: args}}
}

// Test is one test case: an ordered list of steps. Model, Provider and Runs
// fall back to the suite's defaults when empty (Runs defaults to 1).
type Test struct {
	Title string `json:"title"`
	Steps []Step `json:"steps"`
	// Runs is the number of iterations to execute, 1 to 10.
	Runs int `json:"runs,omitempty"`
	// Model is a hosted id in provider/name form (runs on credits) or a
	// provider-native id, which needs a key in RunParams.ModelAPIKeys.
	Model    string `json:"model,omitempty"`
	Provider string `json:"provider,omitempty"`
	// IsNegativeTest makes the test pass only when no tool is called.
	IsNegativeTest bool           `json:"isNegativeTest,omitempty"`
	ExpectedOutput string         `json:"expectedOutput,omitempty"`
	Scenario       string         `json:"scenario,omitempty"`
	AdvancedConfig map[string]any `json:"advancedConfig,omitempty"`
}

// PassCriteria decides a run's result: it passes when its pass rate, in
// percent, reaches MinimumPassRate (100 when unset).
type PassCriteria struct {
	MinimumPassRate float64 `json:"minimumPassRate"`
}

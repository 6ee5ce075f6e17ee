package evals

import "encoding/json"

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
// called with matching arguments (Assertion.Args) at least MinCount times.
const AssertToolCalledWith = "toolCalledWith"

// The other predicate types of the service's library, with the Assertion
// fields each uses. The double evaluates toolCalledWith only (the others
// are reported skipped).
const (
	AssertToolCalledAtLeastOnce         = "toolCalledAtLeastOnce"         // ToolName
	AssertToolNeverCalled               = "toolNeverCalled"               // ToolName
	AssertFirstToolWas                  = "firstToolWas"                  // ToolName
	AssertResponseContains              = "responseContains"              // Needle, CaseSensitive
	AssertResponseMatches               = "responseMatches"               // Pattern
	AssertNoToolErrors                  = "noToolErrors"                  // none
	AssertFinalAssistantMessageNonEmpty = "finalAssistantMessageNonEmpty" // none
	AssertTokenBudgetUnder              = "tokenBudgetUnder"              // Tokens
	AssertWidgetRendered                = "widgetRendered"                // ToolName (optional)
	AssertWidgetRenderLatencyUnder      = "widgetRenderLatencyUnder"      // Ms, ToolName (optional)
	AssertWidgetNoConsoleErrors         = "widgetNoConsoleErrors"         // ToolName (optional)
	AssertTurnCountUnder                = "turnCountUnder"                // Turns
)

// Assertion is the predicate of an assert step: Type selects it and the
// fields it uses (see the Assert constants). AssertCalledWith builds the
// usual one. The service also takes assertion types and members this type
// does not model (a widget assertion such as {"type": "widgetVisible",
// "selector": "#cart", "timeoutMs": 500}): decoding keeps them in Extra and
// encoding sends them back unchanged.
type Assertion struct {
	Type     string `json:"type"`
	ToolName string `json:"toolName,omitempty"`
	// Args is toolCalledWith's expected arguments, required by the
	// service for that type: {"args": {"args": {...}}} on the wire.
	Args *ArgMatcher `json:"args,omitempty"`
	// MinCount is how many matching calls toolCalledWith needs (0: 1).
	MinCount      int     `json:"minCount,omitempty"`
	Needle        string  `json:"needle,omitempty"`
	CaseSensitive bool    `json:"caseSensitive,omitempty"`
	Pattern       string  `json:"pattern,omitempty"` // a regular expression's source, without flags
	Tokens        float64 `json:"tokens,omitempty"`
	Ms            float64 `json:"ms,omitempty"`
	Turns         float64 `json:"turns,omitempty"`
	// Extra holds the members of the assertion this type does not model,
	// by JSON key, each value as the JSON it was: UnmarshalJSON fills it
	// and MarshalJSON sends its members after the modelled fields,
	// in key order. A key naming a modelled field (in any case, as
	// encoding/json matches them) is not sent: the field wins. A misspelt
	// key lands here too and is sent as it is (the service's steps allow
	// members of their own).
	Extra map[string]json.RawMessage `json:"-"`
}

// How an ArgMatcher compares arguments.
const (
	// ArgumentMatchingPartial (the default) checks the keys given only;
	// a value that is one of the words any, string, number, boolean,
	// object, array or null checks the argument's JSON type instead.
	ArgumentMatchingPartial = "partial"
	// ArgumentMatchingExact wants the arguments equal, with no extra keys.
	ArgumentMatchingExact = "exact"
	// ArgumentMatchingIgnore checks the tool name only.
	ArgumentMatchingIgnore = "ignore"
)

// ArgMatcher is the expected arguments of a toolCalledWith assertion. As
// the service's assertions are open objects, members this type does not
// model are kept in Extra when it is decoded and sent back unchanged: an
// assertion written with its arguments flat ("args": {"a": 1} instead of
// "args": {"args": {"a": 1}}) reaches the service as written, which
// refuses it, instead of becoming one that matches any call.
type ArgMatcher struct {
	// Args are the expected arguments; nil is sent as {} (with partial
	// matching, any call of the tool) unless Extra has members: then it
	// is left out and the service says what is missing.
	Args map[string]any `json:"args"`
	// ArgumentMatching is an ArgumentMatching constant; empty is partial.
	ArgumentMatching string `json:"argumentMatching,omitempty"`
	// Extra holds members not modelled above, by their JSON names.
	Extra map[string]json.RawMessage `json:"-"`
}

// Expected is m's expected arguments: none for a nil m.
func (m *ArgMatcher) Expected() map[string]any {
	if m == nil {
		return nil
	}
	return m.Args
}

// Step is one authored test step. ID is required and unique within its
// test; which other fields apply depends on Kind. The constructors
// PromptStep, ToolCallStep, InteractStep and AssertCalledWith fill them.
// The service's steps are open objects: members this type does not model
// are kept in Extra when a step is decoded and sent back unchanged.
type Step struct {
	ID   string   `json:"id"`
	Kind StepKind `json:"kind"`
	// Prompt is the user message of a prompt step.
	Prompt string `json:"prompt,omitempty"`
	// ServerName names the saved server owning ToolName (toolCall). The
	// reference leaves it optional; the service's current step schema
	// requires it on a toolCall step, so set it.
	ServerName string `json:"serverName,omitempty"`
	// ToolName is the tool of a toolCall or interact step.
	ToolName string `json:"toolName,omitempty"`
	// Arguments are the arguments of a toolCall step; a nil map is sent
	// as {} on a toolCall step (see MarshalJSON).
	Arguments map[string]any `json:"arguments,omitzero"`
	// Action is the widget action of an interact step.
	Action map[string]any `json:"action,omitzero"`
	// Assertion is the assertion of an assert step.
	Assertion *Assertion `json:"assertion,omitempty"`
	// Extra holds the members of the step this type does not model, by
	// JSON key, each value as the JSON it was: UnmarshalJSON fills it and
	// MarshalJSON sends its members after the modelled fields,
	// in key order. A key naming a modelled field (in any case, as
	// encoding/json matches them) is not sent: the field wins. A misspelt
	// key lands here too and is sent as it is (the service's steps allow
	// members of their own).
	Extra map[string]json.RawMessage `json:"-"`
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
// with args (partial matching: the keys given; nil checks the name only).
func AssertCalledWith(id, tool string, args map[string]any) Step {
	return Step{ID: id, Kind: KindAssert, Assertion: &Assertion{Type: AssertToolCalledWith, ToolName: tool,
		Args: &ArgMatcher{Args: args}}}
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
	// IsNegativeTest makes the test fail when the model calls any tool
	// (toolCall steps' calls are exempt). Its assert steps are still
	// judged: a toolCalledWith assert in it fails it when the tool was not
	// called, and the model's call fails the test; a toolCall step's call
	// meets the assert.
	IsNegativeTest bool           `json:"isNegativeTest,omitempty"`
	ExpectedOutput string         `json:"expectedOutput,omitempty"`
	Scenario       string         `json:"scenario,omitempty"`
	AdvancedConfig map[string]any `json:"advancedConfig,omitzero"`
	// MatchOptions overrides the suite's tool-call matching for this
	// test (nil keeps the suite's). The service takes it on run and suite
	// creation alike, though the reference's schemas do not list it.
	MatchOptions *MatchOptions `json:"matchOptions,omitempty"`
}

// PassCriteria decides a run's result: it passes when its pass rate, in
// percent, reaches MinimumPassRate. A nil *PassCriteria leaves the
// service's default, 100, as does a JSON object without minimumPassRate;
// decoded into this type such an object holds 0, so a program re-sending
// a decoded body should send nil instead (eval run --file does).
type PassCriteria struct {
	MinimumPassRate float64 `json:"minimumPassRate"`
}

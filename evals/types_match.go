package evals

import (
	"strconv"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/shared"
)

// MatchOptions is how a test's actual tool calls are matched to its
// expected ones (Test.MatchOptions, RunParams.MatchOptionsOverride). It is
// the type package ingest sends with a result, so one value serves both.
// ToolCallOrder is a ToolCallOrder constant, ArgumentMatching a
// shared.ArgumentMatching constant; MaxExtraToolCalls and UnlimitedExtraToolCalls
// tell a cap (0 included) from unlimited (null) from unset.
type MatchOptions = shared.MatchOptions

// Tool-call orders of MatchOptions.ToolCallOrder, the shared package's
// (one vocabulary serves evals and ingest; the argument matching modes
// are the shared package's ArgumentMatching constants).
const (
	// ToolCallOrderIgnore matches the expected calls in any order.
	ToolCallOrderIgnore = shared.ToolCallOrderIgnore
	// ToolCallOrderSuperset wants the expected calls in order, with
	// extra calls allowed between them.
	ToolCallOrderSuperset = shared.ToolCallOrderSuperset
	// ToolCallOrderStrict wants exactly the expected sequence.
	ToolCallOrderStrict = shared.ToolCallOrderStrict
)

// SkillsOverride changes which skills a run delivers to the model
// (RunParams.SkillsOverride).
type SkillsOverride string

// SkillsExclude runs with no skills from any channel, marked as such: the
// "without skills" arm of an A/B comparison. A pinned plugin's MCP servers
// stay connected.
const SkillsExclude SkillsOverride = "exclude"

// checkMatch refuses, naming its field, match options whose encoding
// would fail: a cap and unlimited at once.
func checkMatch(field string, m *MatchOptions) error {
	if m != nil && m.UnlimitedExtraToolCalls && m.MaxExtraToolCalls != nil {
		return apierr.Invalid(field+".maxExtraToolCalls", "MatchOptions sets both MaxExtraToolCalls and UnlimitedExtraToolCalls")
	}
	return nil
}

// checkTestsMatch is checkMatch over each test's MatchOptions.
func checkTestsMatch(tests []Test) error {
	for i := range tests {
		if err := checkMatch("tests["+strconv.Itoa(i)+"].matchOptions", tests[i].MatchOptions); err != nil {
			return err
		}
	}
	return nil
}

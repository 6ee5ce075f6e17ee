package projectopstest

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/evalmodel"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/evals"
)

// prompt runs one prompt step: the model answers, the engine executes the
// tools it calls and feeds the results back until it calls none.
func (x *iterExec) prompt(ctx context.Context, i int, st *evals.Step) {
	res := &x.steps[i]
	x.msgs = append(x.msgs, evals.TraceMessage{Role: "user", Content: st.Prompt})
	before := len(x.actual)
	model := x.s.ev.opts.model
	key, ok := x.s.ev.modelKey(x.it.test.Model, x.it.test.Provider, x.env.modelKeys)
	if !ok {
		x.infraErr = "model: no usable " + x.it.test.Provider + " key for " + x.it.test.Model +
			" (pass modelApiKeys or store a key for the organization)"
		return
	}
	for turn := 0; ; turn++ {
		if turn == maxModelTurns {
			res.Status, res.Reason = evals.StepFail, fmt.Sprintf("the model kept calling tools after %d turns", maxModelTurns)
			break
		}
		start := x.ms()
		resp, err := model.Generate(ctx, ModelRequest{Model: x.it.test.Model, Provider: x.it.test.Provider,
			Messages: slices.Clone(x.msgs), Tools: x.env.tools, APIKey: key})
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			// A provider refusing a key often quotes it: the run's keys
			// and the one used (perhaps the organization's) are taken out,
			// as a failing MCP server's secrets are.
			x.infraErr = "model: " + x.env.scrubModelKeys(err.Error(), key)
			x.spans = append(x.spans, evals.Span{ID: fmt.Sprintf("llm-%d-%d", i, turn), Name: "model error",
				Category: "error", StartMs: start, EndMs: x.ms(), Status: "error", ModelID: x.it.test.Model})
			return
		}
		x.usage.InputTokens += resp.Usage.InputTokens
		x.usage.OutputTokens += resp.Usage.OutputTokens
		x.usage.TotalTokens += resp.Usage.TotalTokens
		x.usage.CachedInputTokens += resp.Usage.CachedInputTokens
		x.usage.ReasoningTokens += resp.Usage.ReasoningTokens
		idx := i
		x.spans = append(x.spans, evals.Span{ID: fmt.Sprintf("llm-%d-%d", i, turn), Name: "model turn",
			Category: "llm", StartMs: start, EndMs: x.ms(), StepIndex: &idx, Status: "ok", ModelID: x.it.test.Model,
			InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens, TotalTokens: resp.Usage.TotalTokens})
		x.msgs = append(x.msgs, evals.TraceMessage{Role: "assistant", Content: resp.Text,
			ToolCalls: slices.Clone(resp.ToolCalls)})
		if len(resp.ToolCalls) == 0 {
			break
		}
		for _, c := range resp.ToolCalls {
			serverID, ok := x.env.owner[c.ToolName]
			if !ok {
				x.toolErr = true
				x.actual = append(x.actual, evals.ToolCall{ToolName: c.ToolName, Arguments: c.Arguments, IsError: true})
				x.msgs = append(x.msgs, evals.TraceMessage{Role: "tool", ToolName: c.ToolName, IsError: true,
					Content: "unknown tool " + c.ToolName})
				continue
			}
			if _, ok := x.callTool(ctx, i, serverID, c.ToolName, c.Arguments); !ok {
				return
			}
		}
	}
	x.prompts = append(x.prompts, x.analyse(i, st, x.actual[before:]))
}

// callTool calls a tool through the MCP layer, recording the call, its
// result message and a span. ok is false when the call could not be made
// (the iteration then fails) or the context ended.
func (x *iterExec) callTool(ctx context.Context, i int, serverID, name string, args map[string]any) (evals.ToolCall, bool) {
	start := x.ms()
	if args == nil {
		args = map[string]any{}
	}
	res, err := x.s.ev.runner.Call(ctx, x.env.userID, x.env.projectID, serverID, name, args)
	if ctx.Err() != nil {
		return evals.ToolCall{}, false
	}
	idx := i
	span := evals.Span{ID: fmt.Sprintf("tool-%d-%d", i, len(x.actual)), Name: name, Category: "tool",
		StartMs: start, EndMs: x.ms(), StepIndex: &idx, ToolName: name, ServerID: serverID, Status: "ok"}
	if err != nil {
		x.infraErr = fmt.Sprintf("tool %s on server %s: %s", name, serverID, errText(err))
		span.Category, span.Status = "error", "error"
		x.spans = append(x.spans, span)
		return evals.ToolCall{}, false
	}
	tc := evals.ToolCall{ToolName: name, Arguments: args, ServerID: serverID, IsError: res.IsError}
	if tc.IsError {
		span.Status = "error"
		x.toolErr = true
	}
	x.spans = append(x.spans, span)
	x.actual = append(x.actual, tc)
	x.msgs = append(x.msgs, evals.TraceMessage{Role: "tool", ToolName: name, IsError: res.IsError,
		Content: resultText(res)})
	return tc, true
}

// resultText flattens a tool result's content for the conversation.
func resultText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		switch v := c.(type) {
		case *mcp.TextContent:
			b.WriteString(v.Text)
		case *mcp.ImageContent:
			b.WriteString("[image]")
		case *mcp.AudioContent:
			b.WriteString("[audio]")
		default:
			b.WriteString("[content]")
		}
	}
	return b.String()
}

// analyse compares the calls a prompt step made with the toolCalledWith
// assertions that follow it, up to the next prompt or toolCall step (each
// opens its own turn, as the service's matcher groups them).
func (x *iterExec) analyse(i int, st *evals.Step, actual []evals.ToolCall) evals.PromptAnalysis {
	pa := evals.PromptAnalysis{PromptIndex: len(x.prompts), StepID: st.ID, Prompt: st.Prompt,
		ExpectedToolCalls: []evals.ToolCall{}, ActualToolCalls: slices.Clone(actual)}
	if pa.ActualToolCalls == nil {
		pa.ActualToolCalls = []evals.ToolCall{}
	}
	if x.it.test.IsNegativeTest {
		// Any call the model made in the turn fails it; expected calls
		// are set aside, as the service's matcher does.
		pa.Unexpected = slices.Clone(actual)
		pa.Passed = len(actual) == 0
		return pa
	}
	for _, next := range x.it.test.Steps[i+1:] {
		if next.Kind == evals.KindPrompt || next.Kind == evals.KindToolCall {
			break
		}
		if a := next.Assertion; next.Kind == evals.KindAssert && a != nil && a.Type == evals.AssertToolCalledWith {
			pa.ExpectedToolCalls = append(pa.ExpectedToolCalls, evals.ToolCall{ToolName: a.ToolName, Arguments: a.Args.Expected()})
		}
	}
	// Pair expected with actual calls as many as can be. The service's
	// matcher keeps only each assert's tool and arguments and matches them
	// partially (the test's default), whatever the assert's own
	// argumentMatching; minCount is the assert row's alone too.
	match := evalmodel.Pair(len(pa.ExpectedToolCalls), len(actual), func(k, j int) bool {
		want, c := pa.ExpectedToolCalls[k], actual[j]
		return c.ToolName == want.ToolName && evalmodel.ArgsMatch(want.Arguments, c.Arguments, evals.ArgumentMatchingPartial)
	})
	used := make([]bool, len(actual))
	for k, want := range pa.ExpectedToolCalls {
		if j := match[k]; j >= 0 {
			used[j] = true
		} else {
			pa.Missing = append(pa.Missing, want)
		}
	}
	for j, c := range actual {
		if !used[j] {
			pa.Unexpected = append(pa.Unexpected, c)
		}
	}
	pa.Passed = len(pa.Missing) == 0
	return pa
}

package projectopstest

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/projectops/projectops-go/projectopstest/internal/evalmodel"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"

	"github.com/projectops/projectops-go/evals"
)

// maxModelTurns bounds the model ↔ tool loop of one prompt step.
const maxModelTurns = 8

// iterExec accumulates one iteration's execution.
type iterExec struct {
	s        *Server
	env      *runEnv
	it       *evalIterRec
	t0       time.Time
	msgs     []evals.TraceMessage
	actual   []evals.ToolCall
	steps    []evals.StepResult
	spans    []evals.Span
	prompts  []evals.PromptAnalysis
	usage    evals.Usage
	infraErr string // set when a step could not execute: the iteration fails
	// halt is why the steps after a failed assert or interact step are
	// skipped: the service's executor stops at the first such failure.
	halt string
	// toolErr records that a tool reported isError: the service fails
	// the iteration on it unless advancedConfig.failOnToolError is false.
	toolErr bool
}

func (e *evalEngine) executeIteration(ctx context.Context, env *runEnv, run *evalRunRec, it *evalIterRec) {
	s := e.s
	s.mu.Lock()
	// A run past its deadline is not terminal until its workers are done:
	// an iteration still queued then never starts (no startedAt, usage or
	// trace), as one still pending when the run is cancelled.
	if run.terminal() || it.status != evals.StatusPending || ctx.Err() != nil {
		s.mu.Unlock()
		return
	}
	it.status, it.startedAt = evals.StatusRunning, s.now()
	s.mu.Unlock()

	x := &iterExec{s: s, env: env, it: it, t0: it.startedAt}
	for i, st := range it.test.Steps {
		x.steps = append(x.steps, evals.StepResult{StepID: st.ID, StepIndex: i, Kind: st.Kind, Status: evals.StepPending})
	}
	switch {
	case env.listErr != nil:
		x.infraErr = fmt.Sprintf("server %s: %s", env.listErrServer, errText(env.listErr))
	case e.opts.hooks.BeforeIteration != nil:
		if err := e.opts.hooks.BeforeIteration(ctx, env.runID, it.id); err != nil && ctx.Err() == nil {
			x.infraErr = err.Error()
		}
	}
	for i := range it.test.Steps {
		if ctx.Err() != nil {
			break
		}
		if x.infraErr != "" {
			x.steps[i].Status, x.steps[i].Reason = evals.StepSkipped, "not executed: "+x.infraErr
			continue
		}
		if x.halt != "" {
			x.steps[i].Status, x.steps[i].Reason = evals.StepSkipped, x.halt
			continue
		}
		x.step(ctx, i)
	}
	x.store(ctx, run)
}

// step executes authored step i, filling its verdict.
func (x *iterExec) step(ctx context.Context, i int) {
	st := &x.it.test.Steps[i]
	res := &x.steps[i]
	start := x.ms()
	if d := x.s.ev.opts.stepDelay; d > 0 && !sleepCtx(ctx, d) {
		return // cancelled or timed out while pacing: left pending
	}
	before := len(x.actual)
	switch st.Kind {
	case evals.KindPrompt:
		x.prompt(ctx, i, st)
	case evals.KindToolCall:
		// A server the run does not have is a setup failure on the
		// service: the iteration fails (status failed), later steps skipped.
		serverID := x.env.owner[st.ToolName]
		if st.ServerName != "" {
			if serverID = x.env.byRef[strings.ToLower(strings.TrimSpace(st.ServerName))]; serverID == "" {
				x.infraErr = "no server of the run is named " + st.ServerName
				break
			}
		}
		if serverID == "" {
			x.infraErr = "no server of the run has a tool named " + st.ToolName
			break
		}
		// An isError result leaves the row ok: on the service it fails the
		// iteration (toolErr), not the step.
		x.callTool(ctx, i, serverID, st.ToolName, st.Arguments)
	case evals.KindInteract:
		h := x.s.ev.opts.interact
		if h == nil {
			res.Status, res.Reason = evals.StepSkipped, "no interact handler is configured"
			break
		}
		if err := h(ctx, *st); err != nil && ctx.Err() == nil {
			res.Status, res.Reason = evals.StepFail, err.Error()
		}
	case evals.KindAssert:
		x.assert(st, res)
	}
	if ctx.Err() != nil {
		return // left pending: the run was cancelled or timed out
	}
	// A setup failure met in a prompt or toolCall step (the only kinds that
	// meet one) leaves its row ok: the service keeps such errors on the
	// iteration (its status and error), as it does a tool's isError.
	if res.Status == evals.StepPending {
		res.Status = evals.StepOK
	}
	if res.Status == evals.StepFail && (st.Kind == evals.KindAssert || st.Kind == evals.KindInteract) {
		x.halt = fmt.Sprintf("not executed: %s step %s failed", st.Kind, st.ID)
	}
	if calls := x.actual[before:]; len(calls) > 0 {
		res.Evidence = map[string]any{"toolCalls": calls}
	}
	idx := i
	x.spans = append(x.spans, evals.Span{ID: fmt.Sprintf("step-%d", i), Name: string(st.Kind) + " " + st.ID,
		Category: "step", StartMs: start, EndMs: x.ms(), StepIndex: &idx, Status: spanStatus(res.Status != evals.StepFail)})
}

func (x *iterExec) assert(st *evals.Step, res *evals.StepResult) {
	a := st.Assertion
	if a == nil || a.Type != evals.AssertToolCalledWith {
		res.Status, res.Reason = evals.StepSkipped, "assertion type not evaluated by the double"
		return
	}
	mode := evals.ArgumentMatchingPartial
	if a.Args != nil && a.Args.ArgumentMatching != "" {
		mode = a.Args.ArgumentMatching
	}
	need, n := max(a.MinCount, 1), 0
	for _, c := range x.actual {
		if c.ToolName == a.ToolName && evalmodel.ArgsMatch(a.Args.Expected(), c.Arguments, mode) {
			if n++; n >= need {
				return
			}
		}
	}
	// Arguments are shown as the service's evaluator shows them: values
	// under sensitive keys scrubbed, each cut short, three calls at most.
	var got []string
	for _, c := range x.actual[:min(len(x.actual), 3)] {
		got = append(got, c.ToolName+" "+evalmodel.Brief(c.Arguments))
	}
	if len(x.actual) > 3 {
		got = append(got, fmt.Sprintf("and %d more", len(x.actual)-3))
	}
	res.Status = evals.StepFail
	times := ""
	if need > 1 {
		times = fmt.Sprintf(" %d times (%d)", need, n)
	}
	res.Reason = fmt.Sprintf("%s was not called with %s%s (%s matching); calls: [%s]", a.ToolName,
		evalmodel.Brief(a.Args.Expected()), times, mode, strings.Join(got, ", "))
}

// ms is the time since the iteration started, on the server's clock.
func (x *iterExec) ms() float64 {
	return float64(x.s.now().Sub(x.t0).Microseconds()) / 1000
}

func spanStatus(ok bool) string {
	if ok {
		return "ok"
	}
	return "error"
}

// errText is the message of an error without its status line.
func errText(err error) string {
	if he, ok := err.(*edge.Error); ok {
		return string(he.Body.Code) + ": " + he.Body.Message
	}
	return err.Error()
}

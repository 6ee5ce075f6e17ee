package projectopstest

import (
	"context"
	"errors"
	"math"
	"strings"

	"github.com/projectops/projectops-go/evals"
)

// store writes the iteration's outcome. Once the run's context ended the
// iteration is cancelled (if cancel did not already say so) and keeps what
// it did so far; a finished iteration counts towards the run's summary.
func (x *iterExec) store(ctx context.Context, run *evalRunRec) {
	s, it := x.s, x.it
	done := ctx.Err() == nil
	passed := x.infraErr == ""
	for _, st := range x.steps {
		if st.Status == evals.StepFail {
			passed = false
		}
	}
	// The service's matcher also holds each prompt turn to the
	// toolCalledWith asserts that follow it, among that turn's calls only
	// (in a negative test, to calling nothing; toolCall steps are exempt).
	for _, p := range x.prompts {
		if !p.Passed {
			passed = false
		}
	}
	if x.toolErr && failOnToolError(it.test) {
		passed = false
	}
	var trace *evals.Trace
	keep := !x.dropTrace(run)
	if keep {
		trace = &evals.Trace{Messages: x.msgs, Prompts: x.prompts, Spans: x.spans}
	} else {
		for i := range x.steps {
			x.steps[i].Evidence = nil // verdicts without evidence
		}
	}
	usage := x.usage

	s.mu.Lock()
	defer s.mu.Unlock()
	if it.status != evals.StatusRunning {
		// Ended by a cancel that was already answered: a terminal
		// iteration reads the same from that moment on, so what the
		// executor finished afterwards is not stored.
		return
	}
	it.duration = s.now().Sub(it.startedAt)
	it.actual, it.steps, it.trace, it.usage = x.actual, x.steps, trace, &usage
	if !done && !x.ran() {
		// Stopped by the deadline before its first step: it never ran,
		// so it reads as one a cancel stopped (no usage, no trace).
		it.trace, it.usage = nil, nil
	}
	if !done {
		it.status = evals.StatusCancelled
		if errors.Is(context.Cause(ctx), context.DeadlineExceeded) {
			it.errText = "run deadline exceeded"
		}
		return
	}
	it.result = evals.ResultFailed
	switch {
	case x.infraErr != "":
		it.status, it.errText = evals.StatusFailed, x.infraErr
	case passed:
		it.status, it.result = evals.StatusCompleted, evals.ResultPassed
	default:
		it.status = evals.StatusCompleted
	}
	if it.result == evals.ResultPassed {
		run.passed++
	} else {
		run.failed++
	}
}

// ran reports whether any step recorded anything: a message, a span or a
// verdict (a step cut while under way recorded none, as a cancel stores).
func (x *iterExec) ran() bool {
	if len(x.msgs) > 0 || len(x.spans) > 0 {
		return true
	}
	for _, st := range x.steps {
		if st.Status != evals.StepPending {
			return true
		}
	}
	return false
}

// dropTrace decides whether the iteration keeps no trace: its title holds
// NoTraceMarker, or it is among the configured fraction, spread evenly by
// iteration number.
func (x *iterExec) dropTrace(run *evalRunRec) bool {
	if strings.Contains(x.it.test.Title, NoTraceMarker) {
		return true
	}
	f := x.s.ev.opts.traceDrop
	n := float64(x.it.number)
	return f > 0 && math.Floor(n*f) > math.Floor((n-1)*f)
}

// failOnToolError is the test's advancedConfig.failOnToolError: a tool
// result with isError fails the iteration unless it is false, as the
// service's verdict has it.
func failOnToolError(t evals.Test) bool {
	v, ok := t.AdvancedConfig["failOnToolError"].(bool)
	return !ok || v
}

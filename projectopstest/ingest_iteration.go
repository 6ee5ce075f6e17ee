package projectopstest

import (
	"bytes"
	"encoding/json"
	"math"
	"time"

	"github.com/projectops/projectops-go/evals"
)

// ingestedIteration is a received row as an eval iteration: finished
// (status completed) with the row's verdict, title, model, provider,
// duration, token usage, error and tool calls. The row itself is kept in
// in for the duration as sent and the trace.
func ingestedIteration(id string, number int, row *ingestedRow, now time.Time) *evalIterRec {
	it := &evalIterRec{id: id, number: number, status: evals.StatusCompleted, result: evals.ResultFailed,
		test:     evals.Test{Title: row.CaseTitle, Model: row.Model, Provider: row.Provider},
		expected: evalCalls(row.ExpectedToolCalls), actual: evalCalls(row.ActualToolCalls),
		duration: msDuration(row.DurationMs), errText: row.Error,
		receivedAt: now, in: row}
	if row.Passed {
		it.result = evals.ResultPassed
	}
	it.usage, it.tokensUsed = row.Tokens.usage()
	return it
}

// msDuration is a row's durationMs as a Duration, saturated at the
// largest one (the view shows the row's own number; this only orders).
func msDuration(ms float64) time.Duration {
	if d := ms * float64(time.Millisecond); d < float64(math.MaxInt64) {
		return time.Duration(max(d, 0))
	}
	return math.MaxInt64
}

// satAdd adds two counts (the contract takes negative ones too),
// saturating instead of wrapping.
func satAdd(a, b int) int {
	switch {
	case b > 0 && a > math.MaxInt-b:
		return math.MaxInt
	case b < 0 && a < math.MinInt-b:
		return math.MinInt
	}
	return a + b
}

// evalCalls converts received tool calls; the argument maps are shared,
// as neither side mutates them.
func evalCalls(in []rowToolCall) []evals.ToolCall {
	out := make([]evals.ToolCall, len(in))
	for i, c := range in {
		out[i] = evals.ToolCall{ToolName: c.ToolName, Arguments: c.Arguments}
	}
	return out
}

// ingestedTrace is the trace envelope of a received row, or nil when it
// sent none. The reference accepts a string, a list of {role, content}
// messages or an envelope object; the first two are wrapped as the
// envelope's raw and messages fields.
func ingestedTrace(raw json.RawMessage) json.RawMessage {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return nil
	}
	var key string
	switch raw[0] {
	case '{':
		return raw
	case '[':
		key = "messages"
	default:
		key = "raw"
	}
	out, err := json.Marshal(map[string]json.RawMessage{key: raw})
	if err != nil {
		return nil
	}
	return out
}

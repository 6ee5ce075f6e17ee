package projectopstest

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/projectopstest/internal/contract"
)

// ingestedRow is a stored ingest result in the double's own terms: the
// fields the eval routes show, typed as the ingest schema types them. The
// SDK's ingest.Result is not used because its int64 token counts refuse
// numbers the schema takes (12.0, 1e3, 10.5).
type ingestedRow struct {
	CaseTitle         string          `json:"caseTitle"`
	Passed            bool            `json:"passed"`
	DurationMs        float64         `json:"durationMs"`
	Provider          string          `json:"provider"`
	Model             string          `json:"model"`
	ExpectedToolCalls []rowToolCall   `json:"expectedToolCalls"`
	ActualToolCalls   []rowToolCall   `json:"actualToolCalls"`
	Tokens            *rowTokens      `json:"tokens"`
	Error             string          `json:"error"`
	Trace             json.RawMessage `json:"trace"`
}

// rowToolCall is an expected or actual tool call of a row.
type rowToolCall struct {
	ToolName  string         `json:"toolName"`
	Arguments map[string]any `json:"arguments"`
}

// rowTokens are a row's token counts as written: any JSON number.
type rowTokens struct {
	Input  json.Number `json:"input"`
	Output json.Number `json:"output"`
	Total  json.Number `json:"total"`
}

// decodeRow reads a stored row. Every stored row passed the ingest
// contract, whose types the row's match, so a failure is the double's bug
// and panics rather than showing an iteration with fields missing.
func decodeRow(raw []byte) *ingestedRow {
	var row ingestedRow
	if err := json.Unmarshal(raw, &row); err != nil {
		panic("projectopstest: a stored ingest row does not decode: " + err.Error())
	}
	return &row
}

// usage is the row's token counts as an iteration holds them (nil, nil
// without tokens); the total is tokens.total when sent and not 0, else
// input + output. evals.Usage's counts are ints, so when a count has a
// fraction usage is nil and the total comes back alone, as tokensUsed (a
// number in the reference) shows it. A whole count too large for an int
// saturates.
func (t *rowTokens) usage() (*evals.Usage, *float64) {
	if t == nil {
		return nil, nil
	}
	in, inWhole := countOf(t.Input)
	out, outWhole := countOf(t.Output)
	total, totalWhole := countOf(t.Total)
	if !inWhole || !outWhole || !totalWhole {
		used := total
		if used == 0 {
			used = in + out
		}
		return nil, &used
	}
	u := &evals.Usage{InputTokens: wholeInt(t.Input, in), OutputTokens: wholeInt(t.Output, out),
		TotalTokens: wholeInt(t.Total, total)}
	if u.TotalTokens == 0 {
		u.TotalTokens = satAdd(u.InputTokens, u.OutputTokens)
	}
	return u, nil
}

// countOf is a count's value (0 when absent) and whether it is a whole
// number in any spelling (12, 12.0, 1e3).
func countOf(n json.Number) (float64, bool) {
	if n == "" {
		return 0, true
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil { // the contract took it as a number: a bug
		panic("projectopstest: a stored token count is not a number: " + err.Error())
	}
	return f, f == math.Trunc(f)
}

// wholeInt is a whole count as an int: exactly as written when it is a
// plain integer (f, a float64, rounds past 2^53), else f saturated.
func wholeInt(n json.Number, f float64) int {
	if i, err := strconv.ParseInt(string(n), 10, 0); err == nil {
		return int(i)
	}
	switch {
	case f >= math.MaxInt:
		return math.MaxInt
	case f <= math.MinInt:
		return math.MinInt
	}
	return int(f)
}

// rowAsResult is a stored row in the SDK's type, for the IngestedIteration
// hook. A whole count written 12.0 or 1e3, which encoding/json refuses for
// an int64, is taken through the row's generic form, which writes it 12;
// a count ingest.Tokens cannot hold (a fraction, or past int64) stays 0.
func rowAsResult(raw []byte) ingest.Result {
	var res ingest.Result
	err := json.Unmarshal(raw, &res)
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return res
	}
	v, derr := contract.Decode(raw)
	data, merr := json.Marshal(v)
	if derr != nil || merr != nil {
		panic("projectopstest: a stored ingest row does not decode: " + err.Error())
	}
	res = ingest.Result{}
	_ = json.Unmarshal(data, &res) // only a count Tokens cannot hold fails: documented above
	return res
}

package projectopstest

import (
	"context"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/projectopstest/internal/evalmodel"
)

// Model is the language model behind prompt steps. The engine sends the
// conversation so far and the tools of the run's servers; the model answers
// with text, tool calls (which the engine executes, appending the results
// as "tool" messages before asking again) and its token usage.
// Implementations must be safe for concurrent use.
type Model interface {
	Generate(ctx context.Context, req ModelRequest) (*ModelResponse, error)
}

// ModelRequest is one model turn.
type ModelRequest struct {
	// Model and Provider are the test's resolved model id and provider.
	Model, Provider string
	// Messages is the conversation: "user" prompts, "assistant" answers
	// and "tool" results.
	Messages []evals.TraceMessage
	// Tools are the tools available on the run's servers.
	Tools []*mcp.Tool
	// APIKey is the run's modelApiKeys entry for Provider: set for a
	// provider-native model, empty for a hosted one (which runs on
	// credits). It never prints.
	APIKey Secret
}

// ModelResponse is a model's answer. ToolCalls name tools of the request
// with their arguments.
type ModelResponse struct {
	Text      string
	ToolCalls []evals.ToolCall
	Usage     evals.Usage
}

// ModelFunc adapts a function to Model, so tests can script answers.
type ModelFunc func(ctx context.Context, req ModelRequest) (*ModelResponse, error)

// Generate calls f.
func (f ModelFunc) Generate(ctx context.Context, req ModelRequest) (*ModelResponse, error) {
	return f(ctx, req)
}

// DefaultModel returns the deterministic model the double uses by default.
// Answering a prompt, it calls every available tool whose name appears in
// the prompt as a word, in order of appearance, with arguments read from
// key=value pairs in the prompt (values may be "quoted"; keys are kept when
// the tool's input schema lists them, and numbers and booleans are
// converted as the schema says). Answering tool results, it returns their
// text and calls nothing. Usage counts about one token per four characters.
func DefaultModel() Model { return ModelFunc(defaultGenerate) }

func defaultGenerate(_ context.Context, req ModelRequest) (*ModelResponse, error) {
	in := 0
	for _, m := range req.Messages {
		in += evalmodel.ApproxTokens(m.Content)
	}
	in += 8 * len(req.Tools)
	resp := &ModelResponse{}
	if n := len(req.Messages); n > 0 && req.Messages[n-1].Role == "user" {
		prompt := req.Messages[n-1].Content
		resp.ToolCalls = evalmodel.PickTools(prompt, req.Tools)
		resp.Text = "Calling " + strconv.Itoa(len(resp.ToolCalls)) + " tool(s)."
	} else {
		var b strings.Builder
		for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role == "tool"; i-- {
			b.WriteString(req.Messages[i].Content)
		}
		resp.Text = b.String()
	}
	out := evalmodel.ApproxTokens(resp.Text) + 6*len(resp.ToolCalls)
	resp.Usage = evals.Usage{InputTokens: in, OutputTokens: out, TotalTokens: in + out}
	return resp, nil
}

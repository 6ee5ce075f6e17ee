package evals

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// Trace is an iteration's trace envelope. It is an open document that
// evolves: the fields below are the ones this SDK knows, Raw holds the
// whole document as received, and a known field whose shape changed is
// left zero rather than failing the read (Raw still has it).
type Trace struct {
	// TraceVersion is the envelope's version (1), when the service says.
	TraceVersion int              `json:"traceVersion,omitempty"`
	Messages     []TraceMessage   `json:"messages,omitempty"`
	Prompts      []PromptAnalysis `json:"prompts,omitempty"`
	Spans        []Span           `json:"spans,omitempty"`
	Raw          json.RawMessage  `json:"-"`
}

// UnmarshalJSON keeps the raw document alongside the known fields. Only
// malformed JSON is an error: a section (messages, prompts, spans) whose
// shape does not match is left empty.
func (t *Trace) UnmarshalJSON(b []byte) error {
	type plain Trace
	var p plain
	err := json.Unmarshal(b, &p)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) {
		p = plain{}
		err = decodeSections(b, &p.TraceVersion, &p.Messages, &p.Prompts, &p.Spans)
	}
	if err != nil {
		return err
	}
	*t = Trace(p)
	t.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// decodeSections decodes each known section of a trace on its own,
// keeping those that fit.
func decodeSections(b []byte, version *int, sections ...any) error {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil {
		return err
	}
	_ = json.Unmarshal(doc["traceVersion"], version)
	for i, name := range []string{"messages", "prompts", "spans"} {
		if raw, ok := doc[name]; ok && json.Unmarshal(raw, sections[i]) != nil {
			// Left empty: Raw has the section as sent.
			_ = json.Unmarshal([]byte("null"), sections[i])
		}
	}
	return nil
}

// TraceMessage is one conversation message. The service stores messages
// as its model layer writes them, whose content is a string or a list of
// parts (text, tool calls, tool results); Content is the text either way
// and Parts the list, when there is one.
type TraceMessage struct {
	// Role is "system", "user", "assistant" or "tool".
	Role string `json:"role"`
	// Content is the message's text: its content when that is a string,
	// else its text parts, joined.
	Content string `json:"content,omitempty"`
	// Parts is the content when it is a list of parts.
	Parts []ContentPart `json:"-"`
	// ToolCalls, ToolName and IsError are the double's flat form of tool
	// use; the service's is Parts.
	ToolCalls []ToolCall `json:"toolCalls,omitempty"`
	// ToolName names the tool whose result a "tool" message carries.
	ToolName string `json:"toolName,omitempty"`
	IsError  bool   `json:"isError,omitempty"`
}

// ContentPart is one part of a message's content. Type is "text",
// "reasoning", "tool-call", "tool-result", "image", "file" or a later
// kind; Raw holds the part as received.
type ContentPart struct {
	Type       string          `json:"type"`
	Text       string          `json:"text,omitempty"`
	ToolCallID string          `json:"toolCallId,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	Input      json.RawMessage `json:"input,omitempty"`
	Output     json.RawMessage `json:"output,omitempty"`
	Raw        json.RawMessage `json:"-"`
}

type traceMessageWire struct {
	Role      string          `json:"role"`
	Content   json.RawMessage `json:"content,omitempty"`
	ToolCalls []ToolCall      `json:"toolCalls,omitempty"`
	ToolName  string          `json:"toolName,omitempty"`
	IsError   bool            `json:"isError,omitempty"`
}

// UnmarshalJSON reads content as a string or as a list of parts.
func (m *TraceMessage) UnmarshalJSON(b []byte) error {
	var w traceMessageWire
	if err := json.Unmarshal(b, &w); err != nil {
		return err
	}
	*m = TraceMessage{Role: w.Role, ToolCalls: w.ToolCalls, ToolName: w.ToolName, IsError: w.IsError}
	c := bytes.TrimSpace(w.Content)
	switch {
	case len(c) == 0 || c[0] == 'n': // absent or null
	case c[0] == '"':
		return json.Unmarshal(c, &m.Content)
	case c[0] == '[':
		var raws []json.RawMessage
		if err := json.Unmarshal(c, &raws); err != nil {
			return err
		}
		var text []string
		for _, r := range raws {
			var p ContentPart
			_ = json.Unmarshal(r, &p) // a part of another shape keeps only Raw
			p.Raw = append(json.RawMessage(nil), r...)
			if p.Type == "text" && p.Text != "" {
				text = append(text, p.Text)
			}
			m.Parts = append(m.Parts, p)
		}
		m.Content = strings.Join(text, "\n")
	}
	return nil
}

// MarshalJSON writes Parts as the content when there are any (each part as
// received, when it was), else Content.
func (m TraceMessage) MarshalJSON() ([]byte, error) {
	w := traceMessageWire{Role: m.Role, ToolCalls: m.ToolCalls, ToolName: m.ToolName, IsError: m.IsError}
	var err error
	switch {
	case m.Parts != nil:
		parts := make([]json.RawMessage, len(m.Parts))
		for i, p := range m.Parts {
			if parts[i] = p.Raw; parts[i] == nil {
				type plain ContentPart
				if parts[i], err = json.Marshal(plain(p)); err != nil {
					return nil, err
				}
			}
		}
		w.Content, err = json.Marshal(parts)
	case m.Content != "":
		w.Content, err = json.Marshal(m.Content)
	}
	if err != nil {
		return nil, err
	}
	return json.Marshal(w)
}

// PromptAnalysis compares the tool calls expected after a prompt step with
// those made.
type PromptAnalysis struct {
	PromptIndex       int        `json:"promptIndex"`
	StepID            string     `json:"stepId,omitempty"`
	Prompt            string     `json:"prompt,omitempty"`
	ExpectedToolCalls []ToolCall `json:"expectedToolCalls"`
	ActualToolCalls   []ToolCall `json:"actualToolCalls"`
	ExpectedOutput    string     `json:"expectedOutput,omitempty"`
	Missing           []ToolCall `json:"missing,omitempty"`
	Unexpected        []ToolCall `json:"unexpected,omitempty"`
	// ArgumentMismatches pairs expected and actual calls of one tool whose
	// arguments differ.
	ArgumentMismatches []ArgumentMismatch `json:"argumentMismatches,omitempty"`
	Passed             bool               `json:"passed"`
}

// ArgumentMismatch is an expected call and the actual call of the same tool
// with the names of the arguments that differ.
type ArgumentMismatch struct {
	Expected            ToolCall `json:"expected"`
	Actual              ToolCall `json:"actual"`
	MismatchedArguments []string `json:"mismatchedArguments"`
}

// Span is a timed part of an iteration: a step, a model call or a tool call.
// Times are milliseconds from the start of the trace.
type Span struct {
	ID       string `json:"id"`
	ParentID string `json:"parentId,omitempty"`
	Name     string `json:"name"`
	// Category is "step", "llm", "tool" or "error".
	Category    string  `json:"category"`
	StartMs     float64 `json:"startMs"`
	EndMs       float64 `json:"endMs"`
	PromptIndex *int    `json:"promptIndex,omitempty"`
	StepIndex   *int    `json:"stepIndex,omitempty"`
	// Status is "ok" or "error".
	Status       string `json:"status,omitempty"`
	ToolCallID   string `json:"toolCallId,omitempty"`
	ToolName     string `json:"toolName,omitempty"`
	ServerID     string `json:"serverId,omitempty"`
	ModelID      string `json:"modelId,omitempty"`
	InputTokens  int    `json:"inputTokens,omitempty"`
	OutputTokens int    `json:"outputTokens,omitempty"`
	TotalTokens  int    `json:"totalTokens,omitempty"`
	// MessageStartIndex and MessageEndIndex bound, inclusively, the
	// messages the span relates to.
	MessageStartIndex *int `json:"messageStartIndex,omitempty"`
	MessageEndIndex   *int `json:"messageEndIndex,omitempty"`
	// FinishReason, Provider, ResponseID and ResponseTimestamp describe a
	// model call's response; TtfcMs is its time to first chunk.
	FinishReason      string  `json:"finishReason,omitempty"`
	Provider          string  `json:"provider,omitempty"`
	ResponseID        string  `json:"responseId,omitempty"`
	ResponseTimestamp string  `json:"responseTimestamp,omitempty"`
	TtfcMs            float64 `json:"ttfcMs,omitempty"`
	// MCPErrorCode is a failed tool call's MCP error code (negative).
	MCPErrorCode int64 `json:"mcpErrorCode,omitempty"`
}

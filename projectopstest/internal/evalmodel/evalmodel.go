// Package evalmodel is the deterministic model of the double's eval
// engine: which tools a prompt names and with which arguments, so that a
// prompt step runs the same way every time without a real model.
package evalmodel

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/projectops/projectops-go/evals"
)

// ApproxTokens counts about one token per four characters.
func ApproxTokens(s string) int { return (len(s) + 3) / 4 }

// PickTools finds the tools named in prompt as words, in order of first
// appearance, with arguments read from key=value pairs in the prompt
// (values may be "quoted"; keys are kept when the tool's input schema lists
// them, and numbers and booleans are converted as the schema says).
func PickTools(prompt string, tools []*mcp.Tool) []evals.ToolCall {
	type hit struct {
		at   int
		tool *mcp.Tool
	}
	var hits []hit
	for _, t := range tools {
		if at := wordIndex(prompt, t.Name); at >= 0 {
			hits = append(hits, hit{at, t})
		}
	}
	slices.SortStableFunc(hits, func(a, b hit) int { return a.at - b.at })
	pairs := promptPairs(prompt)
	calls := make([]evals.ToolCall, 0, len(hits))
	for _, h := range hits {
		calls = append(calls, evals.ToolCall{ToolName: h.tool.Name, Arguments: argsFor(h.tool, pairs)})
	}
	return calls
}

func isNameRune(r rune) bool {
	return unicode.IsLetter(r) || unicode.IsDigit(r) || r == '_' || r == '-' || r == '.'
}

// wordIndex returns the first index of name in s not inside a longer name.
func wordIndex(s, name string) int {
	if name == "" {
		return -1
	}
	for off := 0; ; {
		i := strings.Index(s[off:], name)
		if i < 0 {
			return -1
		}
		i += off
		end := i + len(name)
		// Runes, not bytes: a multi-byte character's first byte would
		// read as a Latin-1 letter ("echo” tool" is a word).
		prev, _ := utf8.DecodeLastRuneInString(s[:i])
		next, _ := utf8.DecodeRuneInString(s[end:])
		before := i == 0 || !isNameRune(prev)
		afterDot, _ := utf8.DecodeRuneInString(s[min(end+1, len(s)):])
		after := end == len(s) || !isNameRune(next) || (s[end] == '.' && (end+1 == len(s) || unicode.IsSpace(afterDot)))
		if before && after {
			return i
		}
		off = i + 1
	}
}

// quoted reports whether rest opens with a quote, straight or curly, and
// the quote that closes it.
func quoted(rest string) (open, close string, ok bool) {
	switch {
	case strings.HasPrefix(rest, `"`):
		return `"`, `"`, true
	case strings.HasPrefix(rest, "“"):
		return "“", "”", true
	}
	return "", "", false
}

// promptPairs reads key=value pairs; a value is "quoted" (or “quoted”) or
// runs to the next space (any, a no-break one too) or comma, without
// trailing sentence punctuation.
func promptPairs(s string) map[string]string {
	out := map[string]string{}
	for i := 0; i < len(s); i++ {
		if s[i] != '=' {
			continue
		}
		k := i
		for k > 0 {
			r, size := utf8.DecodeLastRuneInString(s[:k])
			if !isNameRune(r) {
				break
			}
			k -= size
		}
		if k == i {
			continue
		}
		key, rest := s[k:i], s[i+1:]
		var val string
		if open, close, ok := quoted(rest); ok {
			if end := strings.Index(rest[len(open):], close); end >= 0 {
				val = rest[len(open) : len(open)+end]
			}
		} else {
			end := strings.IndexFunc(rest, func(r rune) bool { return unicode.IsSpace(r) || r == ',' || r == ';' })
			if end < 0 {
				end = len(rest)
			}
			val = strings.TrimRight(rest[:end], ".!?:)…")
		}
		if _, dup := out[key]; !dup {
			out[key] = val
		}
	}
	return out
}

// argsFor keeps the pairs the tool's schema names (all of them when the
// schema lists no properties), typed as the schema says.
func argsFor(t *mcp.Tool, pairs map[string]string) map[string]any {
	props := schemaProps(t.InputSchema)
	args := map[string]any{}
	for k, v := range pairs {
		typ, known := props[k]
		if len(props) > 0 && !known {
			continue
		}
		args[k] = typed(typ, v)
	}
	return args
}

func typed(typ, v string) any {
	switch typ {
	case "integer":
		if n, err := strconv.ParseInt(v, 10, 64); err == nil {
			return n
		}
	case "number":
		if f, err := strconv.ParseFloat(v, 64); err == nil {
			return f
		}
	case "boolean":
		if b, err := strconv.ParseBool(v); err == nil {
			return b
		}
	}
	return v
}

// schemaProps returns property name → JSON type of an input schema in any
// of the forms go-sdk hands out.
func schemaProps(schema any) map[string]string {
	var s struct {
		Properties map[string]struct {
			Type any `json:"type"`
		} `json:"properties"`
	}
	switch v := schema.(type) {
	case nil:
		return nil
	case json.RawMessage:
		_ = json.Unmarshal(v, &s)
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil
		}
		_ = json.Unmarshal(b, &s)
	}
	out := make(map[string]string, len(s.Properties))
	for k, p := range s.Properties {
		t, _ := p.Type.(string)
		out[k] = t
	}
	return out
}

package ingest

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
)

// Chunk limits, as the reference reporter cuts them.
const (
	DefaultChunkSize  = 200
	DefaultChunkBytes = 1 << 20
	// chunkOverhead is reserved in every chunk for the request envelope
	// around the results array ({"runId":"...","results":[...]}).
	chunkOverhead = 512
)

// encoder turns results into redacted JSON, truncating oversize ones.
type encoder struct {
	buf    bytes.Buffer
	fast   []byte // appendSimple's output, reused
	enc    *json.Encoder
	redact redactor
	hook   func(string) string
	limit  int // largest encoded result that fits a chunk
	// htmlDropped tells whether the last encode dropped widget HTML to
	// fit: whether a failed upload cost the result its HTML, to warn of.
	htmlDropped bool
}

func newEncoder(rd redactor, hook func(string) string, chunkBytes int) *encoder {
	e := &encoder{redact: rd, hook: hook, limit: chunkBytes - chunkOverhead}
	e.enc = json.NewEncoder(&e.buf)
	e.enc.SetEscapeHTML(false)
	return e
}

// encode returns res's redacted JSON (valid until the next call) and
// whether it had to be truncated to fit.
func (e *encoder) encode(res *Result) ([]byte, bool, error) {
	e.htmlDropped = false
	if e.hook != nil {
		applyHook(res, e.hook)
	}
	b, err := e.marshal(res)
	if err != nil {
		return nil, false, err
	}
	if len(b) <= e.limit {
		return b, false, nil
	}
	// Drop widget HTML first, the largest first, keeping each snapshot's
	// other fields (Record uploads it, a TBRecorder spools it, rather than
	// have it dropped; this is what is sent when that fails). Then cut the
	// biggest text field, redacted first (cutText), until it fits
	// (removing at least the excess each time, so this ends fast), then
	// drop the structured fields.
	r := *res
	if hasWidgetHTML(&r) {
		r.WidgetSnapshots = slices.Clone(r.WidgetSnapshots)
		// The HTML to drop is picked from its encoded size, so the result
		// is marshalled once more, not once per snapshot; redaction can
		// make that estimate short, and then all the rest goes too.
		for _, all := range []bool{false, true} {
			if len(b) <= e.limit || !dropWidgetHTML(r.WidgetSnapshots, len(b)-e.limit, all) {
				break
			}
			e.htmlDropped = true
			if b, err = e.marshal(&r); err != nil {
				return nil, false, err
			}
		}
	}
	for i := 0; len(b) > e.limit && i < 16; i++ {
		f := biggest(&r)
		if f == nil {
			break
		}
		// The excess is in encoded bytes; escapes make a field's
		// encoding longer than its text, so the cut is scaled to it.
		excess := len(b) - e.limit
		if enc := escapedLen(*f); enc > len(*f) {
			excess = int(int64(excess)*int64(len(*f))/int64(enc)) + 1
		}
		*f = e.redact.cutMiddle(*f, len(*f)-excess-96)
		if b, err = e.marshal(&r); err != nil {
			return nil, false, err
		}
	}
	if len(b) > e.limit {
		r.Metadata = map[string]any{"truncated": "metadata, errorDetails, trace, tool calls, widget snapshots and advancedConfig dropped to fit the chunk size"}
		r.ErrorDetails, r.ExpectedToolCalls, r.ActualToolCalls, r.Trace = "", nil, nil, nil
		e.htmlDropped = e.htmlDropped || hasWidgetHTML(&r)
		r.WidgetSnapshots, r.AdvancedConfig = nil, nil
		r.CaseTitle, r.Query, r.ExpectedOutput = e.redact.cutMiddle(r.CaseTitle, 1024), "", ""
		r.Error = ""
		if res.Error != "" { // a passing result stays without an error
			r.Error = marker(len(res.Error))
		}
		b, err = e.marshal(&r)
	}
	return b, true, err
}

// dropWidgetHTML replaces the widget HTML of snaps, the largest first, by
// a note that it was dropped until the encoded bytes removed reach excess
// (all of it when all is set), and reports whether it dropped any.
func dropWidgetHTML(snaps []WidgetSnapshot, excess int, all bool) bool {
	var order []int
	for i := range snaps {
		// HTML shorter than the note would not shrink the result.
		if h := snaps[i].WidgetHTML; escapedLen(h) > len(widgetHTMLDropped(len(h))) && !strings.HasPrefix(h, widgetDroppedPrefix) {
			order = append(order, i)
		}
	}
	// Largest first; the sort is stable, so equal sizes go in order.
	slices.SortStableFunc(order, func(a, b int) int { return len(snaps[b].WidgetHTML) - len(snaps[a].WidgetHTML) })
	removed := 0
	for k, i := range order {
		if !all && removed >= excess {
			return k > 0
		}
		h := snaps[i].WidgetHTML
		snaps[i].WidgetHTML = widgetHTMLDropped(len(h))
		removed += escapedLen(h) - len(snaps[i].WidgetHTML)
	}
	return len(order) > 0
}

// widgetDroppedPrefix starts what replaces widget HTML dropped to fit a
// chunk: an HTML comment (the widget renders empty) that says so.
const widgetDroppedPrefix = "<!-- widget HTML dropped by projectops"

func widgetHTMLDropped(n int) string {
	return widgetDroppedPrefix + " to fit the chunk size: " + strconv.Itoa(n) + " bytes removed -->"
}

// biggest returns the largest text field of r worth cutting, or nil. A
// trace is turned into a string first, so it can be cut like the others.
func biggest(r *Result) *string {
	var best *string
	for _, f := range []*string{&r.Error, &r.ErrorDetails, &r.Query, &r.ExpectedOutput} {
		if len(*f) > 128 && (best == nil || len(*f) > len(*best)) {
			best = f
		}
	}
	if len(r.Trace) > 128 && (best == nil || len(r.Trace) > len(*best)) {
		// Cut a trace as text: it stays visible, though no longer structured.
		return nil
	}
	return best
}

func (e *encoder) marshal(res *Result) ([]byte, error) {
	if b, ok := appendSimple(e.fast[:0], res); ok {
		e.fast = b
		return e.redact.apply(b), nil
	}
	e.buf.Reset()
	if err := e.enc.Encode(res); err != nil {
		return nil, err
	}
	b := bytes.TrimSuffix(e.buf.Bytes(), []byte("\n"))
	return e.redact.apply(b), nil
}

// applyHook runs the user's redaction hook over every text field.
func applyHook(r *Result, hook func(string) string) {
	for _, f := range []*string{&r.CaseTitle, &r.Query, &r.Error, &r.ErrorDetails, &r.ExpectedOutput} {
		if *f != "" {
			*f = hook(*f)
		}
	}
	if len(r.Trace) > 0 {
		var v any
		if json.Unmarshal(r.Trace, &v) == nil {
			if b, err := json.Marshal(hookAny(v, hook)); err == nil {
				r.Trace = b
			}
		}
	}
	if r.Metadata != nil {
		r.Metadata = hookAny(r.Metadata, hook).(map[string]any)
	}
	if r.AdvancedConfig != nil {
		r.AdvancedConfig = hookAny(r.AdvancedConfig, hook).(map[string]any)
	}
	for _, calls := range [][]ToolCall{r.ExpectedToolCalls, r.ActualToolCalls} {
		for i := range calls {
			if calls[i].Arguments != nil {
				calls[i].Arguments = hookAny(calls[i].Arguments, hook).(map[string]any)
			}
		}
	}
}

// hookAny applies hook to every string in v, returning a copy.
func hookAny(v any, hook func(string) string) any {
	switch x := v.(type) {
	case string:
		return hook(x)
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = hookAny(e, hook)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = hookAny(e, hook)
		}
		return out
	}
	return v
}

// escapedLen is the length of s's JSON string encoding without its quotes
// (HTML characters unescaped, as the encoder writes them).
func escapedLen(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t':
			n += 2
		case c < 0x20:
			n += 6
		default:
			n++
		}
	}
	return n
}

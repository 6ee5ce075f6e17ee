package ingest

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"
)

// appendSimple appends res as encoding/json would encode it (HTML
// unescaped), byte for byte, when res is the common shape of a test
// result: text, numbers, a verdict and scalar metadata. It reports false,
// appending nothing, for anything else (tool calls, traces, snapshots,
// configs, other metadata values, non-finite numbers), which the general
// encoder then handles. encoding/json spends most of a go test report's
// encoding time in reflection; FuzzAppendSimple holds this to its output.
func appendSimple(b []byte, res *Result) ([]byte, bool) {
	if len(res.ExpectedToolCalls) > 0 || len(res.ActualToolCalls) > 0 || res.Tokens != nil || len(res.Trace) > 0 ||
		len(res.AdvancedConfig) > 0 || len(res.WidgetSnapshots) > 0 || res.MatchOptions != nil ||
		!finite(res.DurationMs) {
		return b, false
	}
	for _, v := range res.Metadata {
		switch v := v.(type) {
		case string, bool, int, int64:
		case float64:
			if !finite(v) {
				return b, false
			}
		default:
			return b, false
		}
	}
	b = append(b, `{"caseTitle":`...)
	b = appendString(b, res.CaseTitle)
	b = appendOpt(b, `,"query":`, res.Query)
	b = append(b, `,"passed":`...)
	b = strconv.AppendBool(b, res.Passed)
	if res.DurationMs != 0 {
		b = append(b, `,"durationMs":`...)
		b = appendFloat(b, res.DurationMs)
	}
	b = appendOpt(b, `,"provider":`, res.Provider)
	b = appendOpt(b, `,"model":`, res.Model)
	b = appendOpt(b, `,"error":`, res.Error)
	b = appendOpt(b, `,"errorDetails":`, res.ErrorDetails)
	b = appendOpt(b, `,"externalIterationId":`, res.ExternalIterationID)
	b = appendOpt(b, `,"externalCaseId":`, res.ExternalCaseID)
	b = appendOpt(b, `,"caseId":`, res.CaseID)
	if res.Metadata != nil { // an empty map set is sent as {}, as omitzero does
		b = append(b, `,"metadata":{`...)
		var small [8]string // the metadata of a test result has a few keys
		keys := small[:0]
		for k := range res.Metadata {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			switch v := res.Metadata[k].(type) {
			case string:
				b = appendString(b, v)
			case bool:
				b = strconv.AppendBool(b, v)
			case int:
				b = strconv.AppendInt(b, int64(v), 10)
			case int64:
				b = strconv.AppendInt(b, v, 10)
			case float64:
				b = appendFloat(b, v)
			}
		}
		b = append(b, '}')
	}
	if res.IsNegativeTest {
		b = append(b, `,"isNegativeTest":true`...)
	}
	b = appendOpt(b, `,"expectedOutput":`, res.ExpectedOutput)
	return append(b, '}'), true
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// appendOpt appends an omitempty string field.
func appendOpt(b []byte, key, s string) []byte {
	if s == "" {
		return b
	}
	return appendString(append(b, key...), s)
}

// appendFloat formats f as encoding/json does: the shortest exact decimal,
// with an exponent only below 1e-6 or from 1e21 on, and no leading zero in
// a negative exponent.
func appendFloat(b []byte, f float64) []byte {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b
}

// appendString quotes s as encoding/json does without HTML escaping:
// quote, backslash and control characters escaped, invalid UTF-8 replaced
// by U+FFFD, and U+2028 and U+2029 escaped.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

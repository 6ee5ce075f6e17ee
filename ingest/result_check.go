package ingest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/internal/apierr"
)

// maxIterationIDChars is the service's limit on an externalIterationId (and
// an externalRunId), in characters (JSON Schema's maxLength counts
// characters, not bytes).
const maxIterationIDChars = 256

// check refuses what the service would refuse of a result, before anything
// is sent, and fills what it requires: a snapshot's protocol and its
// toolMetadata object; a snapshot with a blob id loses its inline HTML.
// It works on copies, never on the caller's slices. A refusal here
// matters: sent, one such result sinks its whole chunk (a 400, which
// Resume would meet again forever).
func (res *Result) check() error {
	switch {
	case strings.TrimSpace(res.CaseTitle) == "":
		return apierr.Invalid("caseTitle", "Result.CaseTitle is required (and not blank)")
	case res.CaseID != "" && res.ExternalCaseID != "" && res.CaseID != res.ExternalCaseID:
		return apierr.Invalid("caseId", "Result.CaseID must equal ExternalCaseID when both are set")
	case utf8.RuneCountInString(res.ExternalIterationID) > maxIterationIDChars:
		return apierr.Invalid("externalIterationId", fmt.Sprintf("Result.ExternalIterationID is longer than %d characters", maxIterationIDChars))
	case len(res.Trace) > 0 && !json.Valid(res.Trace):
		// Sent as given: encoding/json would fail the whole result with
		// an untyped error. The trace is not echoed (it may hold secrets).
		return apierr.Invalid("trace", "Result.Trace is not valid JSON")
	}
	if len(res.WidgetSnapshots) > 0 {
		snaps := slices.Clone(res.WidgetSnapshots)
		for i := range snaps {
			s := &snaps[i]
			switch s.Protocol {
			case "":
				s.Protocol = WidgetProtocolMCPApps
			case WidgetProtocolMCPApps:
			default:
				return apierr.Invalid("widgetSnapshots["+strconv.Itoa(i)+"].protocol", `WidgetSnapshot.Protocol must be "mcp-apps"`)
			}
			if s.ToolMetadata == nil {
				s.ToolMetadata = map[string]any{}
			}
			if s.WidgetHTMLBlobID != "" {
				// The blob already holds the HTML: the service's reporter
				// sends no inline copy beside it, and the copy must never
				// be uploaded over the caller's id.
				s.WidgetHTML = ""
			}
		}
		res.WidgetSnapshots = snaps
	}
	if m := res.MatchOptions; m != nil {
		if !oneOf(m.ToolCallOrder, "", ToolCallOrderIgnore, ToolCallOrderStrict, ToolCallOrderSuperset) {
			return apierr.Invalid("matchOptions.toolCallOrder", "MatchOptions.ToolCallOrder must be ignore, strict or superset")
		}
		if !oneOf(m.ArgumentMatching, "", ArgumentMatchingExact, ArgumentMatchingPartial, ArgumentMatchingIgnore) {
			return apierr.Invalid("matchOptions.argumentMatching", "MatchOptions.ArgumentMatching must be exact, partial or ignore")
		}
		if m.UnlimitedExtraToolCalls && m.MaxExtraToolCalls != nil {
			return apierr.Invalid("matchOptions.maxExtraToolCalls", "MatchOptions sets both MaxExtraToolCalls and UnlimitedExtraToolCalls")
		}
	}
	return nil
}

func oneOf(s string, allowed ...string) bool { return slices.Contains(allowed, s) }

// uploadWidgets sends every inline widget HTML of res through an upload
// URL and replaces it by the stored blob's id. Record calls it only for a
// result that would not fit a chunk otherwise, and sends smaller HTML
// inline; the service's reporter uploads every inline widget HTML of every
// result before it chunks anything (and sends inline what fails to
// upload). What is uploaded is redacted first, by the rules the result
// itself goes through (inline, the HTML would have been). It reports
// whether anything was uploaded; an upload answered without a storageId
// is a failed one (ErrNoStorageID).
func (r *Reporter) uploadWidgets(ctx context.Context, res *Result) (bool, error) {
	uploaded := false
	for i := range res.WidgetSnapshots {
		s := &res.WidgetSnapshots[i]
		if s.WidgetHTML == "" {
			continue
		}
		id, err := uploadWidgetHTML(r.callCtx(ctx), r.svc, r.opt.Project, r.enc.redact.html(s.WidgetHTML))
		if err != nil {
			return uploaded, err
		}
		s.WidgetHTML, s.WidgetHTMLBlobID, uploaded = "", id, true
	}
	return uploaded, nil
}

// unencodable is Record's error for a result that failed to encode as err
// says. A value encoding/json cannot encode (a NaN or an infinity, a
// channel, a func, a json.RawMessage or a Marshaler whose JSON is not) is
// the caller's, as a blank title is: a VALIDATION_ERROR naming
// metadata.<key> or advancedConfig.<key> when such a value is the cause
// (the first by key order), else the result. title is the result's title
// as it may be shown (redacted).
func unencodable(res *Result, title string, err error) error {
	var ve *json.UnsupportedValueError
	var te *json.UnsupportedTypeError
	var me *json.MarshalerError
	if !errors.As(err, &ve) && !errors.As(err, &te) && !errors.As(err, &me) {
		return fmt.Errorf("projectops: ingest: encoding result %q: %w", title, err)
	}
	field := "result"
	if f, ferr := firstUnencodable("metadata", res.Metadata); f != "" {
		field, err = f, ferr
	} else if f, ferr := firstUnencodable("advancedConfig", res.AdvancedConfig); f != "" {
		field, err = f, ferr
	}
	// The encoder's own text may quote the value (a failing MarshalJSON's
	// message can hold a header or a token): name only the failing type.
	return apierr.Invalid(field, fmt.Sprintf("result %q: %s cannot be encoded as JSON", title, field)+apierr.EncodeFailure(err))
}

// firstUnencodable names the first value of m, by key order, that
// encoding/json fails to encode ("name.key"), with its error; "" when none.
func firstUnencodable(name string, m map[string]any) (string, error) {
	for _, k := range slices.Sorted(maps.Keys(m)) {
		if _, err := json.Marshal(m[k]); err != nil {
			return name + "." + k, err
		}
	}
	return "", nil
}

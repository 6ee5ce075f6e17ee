package apierr

import (
	"encoding/json"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/projectops/projectops-go/shared"
)

// MaxLegacyMessage caps the text kept from a legacy error, one line of it:
// the rest of a backend's message is often a dump of the request body (a
// validator echoing the rejected object, credentials included).
const MaxLegacyMessage = 512

// legacyBody is the ingest routes' older error form: {ok: false, error}
// (or a message without a code), which the service's reporter reads as
// error ?? message.
type legacyBody struct {
	Error   any `json:"error"`
	Message any `json:"message"`
}

// Legacy reads raw, an error answer without an envelope code, in the
// ingest routes' legacy form. scrub (nil for none) redacts the whole text
// before anything of it is kept, and every string read from a billing
// refusal's payload again (see LegacyScrubbed). A text that carries
// billing_limit_reached is the billing refusal, read from the first JSON
// object inside the text (a backend exception wraps it: "Uncaught
// ConvexError: {…}\n at …"); any other text becomes the message, one line
// of it: the line that refuses caseId as unknown when one does (see
// RejectsCaseID), else the first. ok is false when raw holds no such text.
func Legacy(status int, raw []byte, scrub func(string) string) (e *shared.Error, ok bool) {
	return LegacyScrubbed(status, raw, scrub, scrub)
}

// LegacyScrubbed is Legacy with the text cleaned twice over. read (nil
// for none) cleans the text a billing refusal is told and its JSON read
// from: it must keep the code and the quotes, so it takes out values that
// cannot hide them (the call's own secrets). shown (nil for none) cleans
// what a caller reads: the text any other line is kept of, and every
// string read from a billing refusal's payload, its message before it is
// cut (a value straddling the cut would leave its head); the payload's
// own JSON escapes can spell a value read did not find, which decoding
// brings back.
func LegacyScrubbed(status int, raw []byte, read, shown func(string) string) (e *shared.Error, ok bool) {
	var b legacyBody
	if json.Unmarshal(raw, &b) != nil {
		return nil, false
	}
	text, _ := b.Error.(string)
	if strings.TrimSpace(text) == "" {
		text, _ = b.Message.(string)
	}
	if strings.TrimSpace(text) == "" {
		return nil, false
	}
	if shown == nil {
		shown = func(s string) string { return s }
	}
	told := text
	if read != nil {
		told = read(text)
	}
	if strings.Contains(told, string(shared.CodeBillingLimitReached)) {
		return legacyBilling(status, told, shown), true
	}
	return &shared.Error{StatusCode: status, Code: StatusCode(status), Message: shownLine(shown(text))}, true
}

// legacyBilling is the billing refusal named inside a legacy text, each
// string read from its payload cleaned by shown.
func legacyBilling(status int, text string, shown func(string) string) *shared.Error {
	e := &shared.Error{StatusCode: status, Code: shared.CodeBillingLimitReached, Message: "Billing limit reached."}
	var payload map[string]any
	if i := strings.IndexByte(text, '{'); i >= 0 {
		// A Decoder stops after the first value: what follows (a stack
		// trace) is never read.
		if json.NewDecoder(strings.NewReader(text[i:])).Decode(&payload) != nil {
			payload = nil
		}
	}
	if payload["code"] != string(shared.CodeBillingLimitReached) {
		e.Billing = &shared.BillingLimit{}
		return e
	}
	if m, _ := payload["message"].(string); strings.TrimSpace(m) != "" {
		e.Message = shownLine(shown(m))
	}
	raw, _ := json.Marshal(payload)
	var f billingFields
	_ = json.Unmarshal(raw, &f)
	f.GateKey, f.Limit = shown(f.GateKey), shown(f.Limit)
	e.Billing = billing(f, nil)
	return e
}

// shownLine is the line of s an error shows: the one that refuses caseId
// as unknown, when one does, else the first that is not blank; trimmed and
// cut to MaxLegacyMessage bytes (on a rune boundary, an ellipsis marking
// the cut).
func shownLine(s string) string {
	line := ""
	for l := range strings.Lines(s) {
		l = strings.TrimSpace(l)
		if line == "" {
			line = l
		}
		if rejectsCaseID(l) {
			line = l
			break
		}
	}
	if line == "" {
		line = strings.TrimSpace(s)
	}
	if len(line) > MaxLegacyMessage {
		cut := MaxLegacyMessage
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut] + "…"
	}
	return line
}

// The phrasings of a strict validator refusing a field it does not know
// (before the field: "extra field `caseId`"; after it, on the same line:
// "caseId is not allowed"), as the service's reporter recognises them. The
// field must sit next to the phrase: a validator refusing another field
// echoes the whole object, caseId included.
var (
	unknownFieldBefore = regexp.MustCompile("(?i)(?:(?:extra|unknown|unexpected|unrecognized|additional)\\s+(?:field|argument|propert\\w*|key)|no such (?:field|argument))[\\s:='\"`]{0,4}caseId\\b")
	unknownFieldAfter  = regexp.MustCompile("(?i)\\bcaseId[\"'`]?[^\\n]{0,24}?(?:is\\s+)?not\\s+(?:in the validator|allowed|permitted|a\\s+(?:valid|known|recognized)\\s+(?:field|argument|propert\\w*))")
)

// RejectsCaseID reports whether e is an ingest backend refusing the
// caseId field as unknown (in its message, whatever its code but billing):
// a backend older than the SDK, which no retry (and no resume) can change.
func RejectsCaseID(e *shared.Error) bool {
	return e != nil && e.Code != shared.CodeBillingLimitReached && rejectsCaseID(e.Message)
}

func rejectsCaseID(s string) bool {
	if !strings.Contains(strings.ToLower(s), "caseid") {
		return false
	}
	return unknownFieldBefore.MatchString(s) || unknownFieldAfter.MatchString(s)
}

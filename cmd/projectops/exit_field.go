package main

import (
	"errors"
	"strings"
	"unicode"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/ingest"
)

// withField is err's message with the API error's details.field (the
// request field a VALIDATION_ERROR or CONFLICT refuses) named after its
// code, "VALIDATION_ERROR (field tests[0].model): ...", beside the reason
// the SDK already prints there: a shell user cannot read the details any
// other way. Only the field: the rest of details may echo request values.
func withField(err error) string {
	s := err.Error()
	var e *projectops.Error
	if !errors.As(err, &e) {
		return s
	}
	field := detailField(e)
	if field == "" {
		return s
	}
	// The SDK's own text, with the code's parenthesis widened: its
	// format (method, status, message, request id) is kept as it is.
	tagged := *e
	code := string(e.Code)
	if code == "" {
		code = "error" // as Error prints a missing code
	}
	if e.Reason != "" {
		tagged.Code = projectops.Code(code + " (" + string(e.Reason) + "; field " + field + ")")
		tagged.Reason = ""
	} else {
		tagged.Code = projectops.Code(code + " (field " + field + ")")
	}
	if old := e.Error(); strings.Contains(s, old) {
		return strings.Replace(s, old, tagged.Error(), 1)
	}
	return s + " (field " + field + ")" // a wrapper that rewrote the text
}

// detailFieldMax bounds the field shown: a path, not a value.
const detailFieldMax = 120

// detailField is details.field on one line, control characters dropped,
// with the API key masked and redacted as the reporter redacts text, then
// cut to detailFieldMax runes: the service names the field, but what it
// sends is still not the CLI's own text, and a cut first could leave most
// of a secret that no longer matches whole.
func detailField(e *projectops.Error) string {
	f, _ := e.Details["field"].(string)
	f = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, f)
	if f == "" {
		return ""
	}
	return cell((*ingest.Service)(nil).RedactText(maskAPIKey(f)), detailFieldMax)
}

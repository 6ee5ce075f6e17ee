package ingest

import "encoding/json"

// RedactText returns text with what the reporter removes from a result
// before spooling or sending it (see Redacted): the client's API key, any
// sk_ token, credential headers' values, bearer tokens, URL credentials
// and a tunnel URL's ?k= secret, by the same rules. It is for a program
// that also prints what it reports (a CLI echoing failing tests' output,
// an eval run's reasons written to JUnit), so the printed text keeps no
// more than the stored one. A ReporterOptions.Redact hook is not applied.
// Redacting its result again changes nothing (a caller may redact text
// that is redacted already).
//
// A nil *Service is safe: it applies every rule but the client's key by
// value (an sk_ token is still replaced as one; a key of another shape is
// kept).
func (s *Service) RedactText(text string) string {
	return string(s.redactor().text(text))
}

// RedactJSON is RedactText for a JSON document, redacted as a result's
// encoding is: strings where they stand, header names as object keys,
// name/value pairs; what it returns is still JSON. doc itself may be
// returned when there is nothing to redact. doc that is not valid JSON is
// redacted as RedactText redacts text (the rules for a document read its
// strings, which text has none of). A nil *Service is safe, as for
// RedactText. The key is taken out of the raw document
// (wire.Scrubber.ScrubRaw) and the decoded text is not cleaned after it,
// so a key holding '\' or '"' that the document spells with an escape
// cut in two is left there.
func (s *Service) RedactJSON(doc []byte) []byte {
	if !json.Valid(doc) {
		return s.redactor().text(string(doc))
	}
	return s.redactor().apply(doc)
}

// redactor is the reporter's redactor for the client's key alone.
func (s *Service) redactor() redactor {
	if s == nil {
		return redactor{}
	}
	return clientRedactor(s.redact)
}

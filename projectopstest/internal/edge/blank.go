package edge

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/contract"
)

// blankRule is how a route's service handler reads a body that holds no
// JSON value; the service's routes differ (checked route by route in its
// server/routes/v1).
type blankRule int

const (
	// blankTrimmed: a body JavaScript's trim() empties is {}
	// (adapter.ts readJsonObjectBody and synthesizeServerBody, servers.ts
	// readJsonObject, images.ts readJsonObjectBody and assertEmptyBody:
	// the hosts, computer environment, eval suite and run, and server
	// routes; eval-run cancel reads no body at all).
	blankTrimmed blankRule = iota
	// blankEmpty: only an empty body is {}; white space is JSON.parse's
	// SyntaxError (eval-ingest.ts proxyIngest: `raw ? JSON.parse(raw) : {}`).
	blankEmpty
	// blankNone: the whole text goes to JSON.parse, so even an empty body
	// is invalid JSON (tunnels.ts create: readJsonBody, c.req.json()).
	blankNone
)

// ruleOf is the blank rule of the route r was routed to.
func ruleOf(r *http.Request) blankRule {
	_, path, _ := strings.Cut(r.Pattern, " ")
	path = strings.TrimPrefix(path, APIPrefix)
	switch {
	case strings.HasPrefix(path, "/projects/{projectId}/eval-ingest/"):
		return blankEmpty
	case path == "/projects/{projectId}/tunnels" && r.Method == http.MethodPost:
		return blankNone
	}
	return blankTrimmed
}

// noValue reports whether data, a body with text decoding's byte-order
// mark already dropped, reads as {} under rule; a body that does not is
// handed to the JSON parser.
func (rule blankRule) noValue(data []byte) bool {
	switch rule {
	case blankEmpty:
		return len(data) == 0
	case blankNone:
		return false
	}
	return contract.Blank(data)
}

// trimJSONSpace trims what JSON.parse skips around a value: JSON's four
// white space characters, not trim()'s wider set.
func trimJSONSpace(data []byte) []byte { return bytes.Trim(data, " \t\r\n") }

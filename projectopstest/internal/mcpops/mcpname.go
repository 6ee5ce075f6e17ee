package mcpops

import (
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// checkMCPName refuses a tool name, prompt name or resource uri (field, as
// the route's body calls it) that go-sdk cannot carry to a server intact.
// Over Streamable HTTP at protocol 2026-07-28 go-sdk copies the value,
// unencoded, into the Mcp-Name header: net/http will not send a header
// value holding a control character other than tab, and a receiver trims
// a leading or trailing space or tab, so the server finds the header and
// the body disagree. go-sdk's own server also breaks its session
// answering an unknown uri with such a control character (its error data
// quotes the uri in Go syntax, not JSON). Either way the caller would get
// a 5xx for its own value. The value is refused on every transport, so the
// answer does not depend on it. Other characters (é, emoji, U+0085) go
// through as they are.
func checkMCPName(field, v string) *edge.Error {
	if strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 && r != '\t' || r == 0x7f }) {
		return edge.Validation(field, field+" must not contain control characters (U+0000-U+001F except tab, U+007F)")
	}
	if strings.Trim(v, " \t") != v {
		return edge.Validation(field, field+" must not begin or end with a space or tab")
	}
	return nil
}

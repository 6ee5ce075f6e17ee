package projectopstest

import (
	"fmt"
	"io"
)

// Secret is a string that never prints: every fmt verb, %v and %#v included,
// writes "[REDACTED]". Secrets held by the double (API key plaintexts in a
// seed, STDIO environment values, raw headers, OAuth client secrets) use it
// so a stray log line or error message cannot leak them. Convert with
// string(s) where the plaintext is genuinely needed.
type Secret string

const redacted = "[REDACTED]"

// String implements fmt.Stringer without revealing the value.
func (Secret) String() string { return redacted }

// GoString implements fmt.GoStringer without revealing the value.
func (Secret) GoString() string { return redacted }

// Format implements fmt.Formatter so that no verb reveals the value.
func (Secret) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, redacted) }

// secretKeys lists the names of a secret map for diagnostics, never values.
func secretKeys(m map[string]Secret) string {
	if len(m) == 0 {
		return "{}"
	}
	return fmt.Sprintf("{%d redacted}", len(m))
}

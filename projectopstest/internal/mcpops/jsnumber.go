package mcpops

import (
	"math"
	"strconv"
)

// jsNumberString formats v as JavaScript's String(v) does (ECMAScript
// Number::toString): the service turns a prompt argument's number into the
// MCP server's string so. The digits are the shortest that round-trip, as
// strconv's precision -1 gives; decimal notation for 1e-6 <= |v| < 1e21,
// exponent form outside with an unpadded exponent ("1e-7", "1e+21"),
// and -0 is "0". encoding/json uses the same cut-offs for a float64.
// NaN and ±Inf cannot come from JSON and are not handled.
func jsNumberString(v float64) string {
	if v == 0 {
		return "0" // -0 too
	}
	if abs := math.Abs(v); abs >= 1e-6 && abs < 1e21 {
		return strconv.FormatFloat(v, 'f', -1, 64)
	}
	s := strconv.FormatFloat(v, 'e', -1, 64)
	// strconv pads the exponent to two digits ("e-07"); JavaScript does
	// not. Below 1e-6 the exponent is -7 or less; at 1e21 and up it has
	// two digits already.
	if n := len(s); s[n-4] == 'e' && s[n-2] == '0' {
		s = s[:n-2] + s[n-1:]
	}
	return s
}

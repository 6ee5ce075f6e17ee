package wire

import (
	"math"
	"strconv"
)

// JSNumber formats v as JavaScript's String(v) does (ECMAScript
// Number::toString), which is also how JSON.stringify writes a finite
// number: the double spells numbers so wherever the service's would pass
// through JavaScript (a prompt argument made a string, a stored host
// config). The digits are the shortest that round-trip, as
// strconv's precision -1 gives; decimal notation for 1e-6 <= |v| < 1e21,
// exponent form outside with an unpadded exponent ("1e-7", "1e+21"),
// and -0 is "0". encoding/json uses the same cut-offs for a float64.
// NaN and ±Inf are not handled: the caller decides (JSON.stringify
// writes them as null).
func JSNumber(v float64) string {
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

package edge

import (
	"encoding/base64"
	"errors"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/internal/wire"
)

// Cursors are opaque to clients: base64url of "<listing kind>:<position>".
// The kind stops a cursor of one listing being replayed against another; the
// position is whatever the listing needs (an offset, or a keyset position
// that stays stable while items are added).

// EncodeCursor returns the cursor for position pos of listing kind.
func EncodeCursor(kind, pos string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + pos))
}

// DecodeCursor returns the position encoded in cursor, or a VALIDATION_ERROR
// naming param when the cursor is not one this listing issued.
func DecodeCursor(kind, cursor, param string) (string, *Error) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return "", Validation(param, "Invalid cursor")
	}
	pos, ok := strings.CutPrefix(string(b), kind+":")
	if !ok || pos == "" {
		return "", Validation(param, "Invalid cursor")
	}
	return pos, nil
}

// EncodeOffsetCursor is EncodeCursor for offset-paginated listings.
func EncodeOffsetCursor(kind string, offset int) string {
	return EncodeCursor(kind, strconv.Itoa(offset))
}

// DecodeOffsetCursor returns the offset in cursor ("" means 0).
func DecodeOffsetCursor(kind, cursor, param string) (int, *Error) {
	if cursor == "" {
		return 0, nil
	}
	pos, herr := DecodeCursor(kind, cursor, param)
	if herr != nil {
		return 0, herr
	}
	n, err := strconv.Atoi(pos)
	if err != nil || n < 0 {
		return 0, Validation(param, "Invalid cursor")
	}
	return n, nil
}

// ClampLimit reads a page-size query parameter as the service's eval
// listings do (JavaScript's min(max(Number(raw) || def, 1), max)): never
// refused, anything unreadable or 0 is def, the rest clamped to [1, max].
func ClampLimit(raw string, def, maxLimit int) int {
	f := jsNumber(raw)
	if f == 0 || math.IsNaN(f) {
		return def
	}
	return int(max(min(f, float64(maxLimit)), 1))
}

// jsDecimal is the decimal form JavaScript's Number() reads.
var jsDecimal = regexp.MustCompile(`^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$`)

// jsNumber is JavaScript's Number(s) for a query value: trimmed as
// JavaScript trims, empty is 0, [+-]Infinity, 0x/0o/0b integers without a
// sign, decimals (an overflow is infinite); anything else NaN.
func jsNumber(s string) float64 {
	s = wire.TrimJS(s)
	switch s {
	case "":
		return 0
	case "Infinity", "+Infinity":
		return math.Inf(1)
	case "-Infinity":
		return math.Inf(-1)
	}
	if len(s) > 2 && s[0] == '0' {
		base := 0
		switch s[1] {
		case 'x', 'X':
			base = 16
		case 'o', 'O':
			base = 8
		case 'b', 'B':
			base = 2
		}
		if base != 0 {
			n, err := strconv.ParseUint(s[2:], base, 64)
			if err != nil && !errors.Is(err, strconv.ErrRange) || strings.ContainsAny(s[2:], "_+-") {
				return math.NaN()
			}
			if err != nil {
				return math.Inf(1) // past 2^64: JavaScript's is finite, but clamped alike
			}
			return float64(n)
		}
	}
	if !jsDecimal.MatchString(s) {
		return math.NaN()
	}
	f, _ := strconv.ParseFloat(s, 64) // an overflow comes back infinite, as in JavaScript
	return f
}

// ParseLimit reads a page-size query parameter: def when absent, else an
// integer in [1, max].
func ParseLimit(raw, param string, def, maxLimit int) (int, *Error) {
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > maxLimit {
		return 0, Validation(param, param+" must be an integer between 1 and "+strconv.Itoa(maxLimit))
	}
	return n, nil
}

package edge

import (
	"encoding/base64"
	"math"
	"strconv"
	"strings"
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
	f, err := strconv.ParseFloat(strings.TrimSpace(raw), 64)
	if err != nil || f == 0 || math.IsNaN(f) {
		return def
	}
	return int(max(min(f, float64(maxLimit)), 1))
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

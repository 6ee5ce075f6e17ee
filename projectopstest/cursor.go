package projectopstest

import (
	"encoding/base64"
	"strconv"
	"strings"
)

// Cursors are opaque to clients: base64url of "<listing kind>:<position>".
// The kind stops a cursor of one listing being replayed against another; the
// position is whatever the listing needs (an offset, or a keyset position
// that stays stable while items are added).

// encodeCursor returns the cursor for position pos of listing kind.
func encodeCursor(kind, pos string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(kind + ":" + pos))
}

// decodeCursor returns the position encoded in cursor, or a VALIDATION_ERROR
// naming param when the cursor is not one this listing issued.
func decodeCursor(kind, cursor, param string) (string, *httpError) {
	b, err := base64.RawURLEncoding.DecodeString(cursor)
	if err != nil {
		return "", errValidation(param, "Invalid cursor")
	}
	pos, ok := strings.CutPrefix(string(b), kind+":")
	if !ok || pos == "" {
		return "", errValidation(param, "Invalid cursor")
	}
	return pos, nil
}

// encodeOffsetCursor is encodeCursor for offset-paginated listings.
func encodeOffsetCursor(kind string, offset int) string {
	return encodeCursor(kind, strconv.Itoa(offset))
}

// decodeOffsetCursor returns the offset in cursor ("" means 0).
func decodeOffsetCursor(kind, cursor, param string) (int, *httpError) {
	if cursor == "" {
		return 0, nil
	}
	pos, herr := decodeCursor(kind, cursor, param)
	if herr != nil {
		return 0, herr
	}
	n, err := strconv.Atoi(pos)
	if err != nil || n < 0 {
		return 0, errValidation(param, "Invalid cursor")
	}
	return n, nil
}

// parseLimit reads a page-size query parameter: def when absent, else an
// integer in [1, max].
func parseLimit(raw, param string, def, maxLimit int) (int, *httpError) {
	if raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < 1 || n > maxLimit {
		return 0, errValidation(param, param+" must be an integer between 1 and "+strconv.Itoa(maxLimit))
	}
	return n, nil
}

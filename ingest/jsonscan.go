package ingest

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

func skipWS(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// scanString returns the contents of the JSON string starting at b[i]
// (still escaped), whether it holds escapes, and the index after the
// closing quote (-1 when unterminated or holding a raw control byte).
func scanString(b []byte, i int) ([]byte, bool, int) {
	esc := false
	for j := i + 1; j < len(b); j++ {
		j = skipPlain(b, j)
		if j >= len(b) {
			break
		}
		switch c := b[j]; {
		case c == '"':
			return b[i+1 : j], esc, j + 1
		case c == '\\':
			esc = true
			j++
			if j >= len(b) {
				return nil, false, -1
			}
			switch b[j] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				if j+4 >= len(b) || !isHex(b[j+1]) || !isHex(b[j+2]) || !isHex(b[j+3]) || !isHex(b[j+4]) {
					return nil, false, -1
				}
				j += 4
			default:
				return nil, false, -1
			}
		case c < 0x20:
			return nil, false, -1
		}
	}
	return nil, false, -1
}

// skipPlain returns the index of the first byte from j on that a JSON
// string scan must look at (a quote, a backslash or a control character),
// or len(b): eight bytes at a time while none is among them.
func skipPlain(b []byte, j int) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	for ; j+8 <= len(b); j += 8 {
		x := binary.LittleEndian.Uint64(b[j:])
		quote, slash := x^(ones*'"'), x^(ones*'\\')
		// A zero byte in quote or slash, or a byte below 0x20 in x, sets
		// its high bit here (bytes at 0x80 and up never count as below).
		special := ((quote - ones) &^ quote) | ((slash - ones) &^ slash) | ((x - ones*0x20) &^ x)
		if special&highs != 0 {
			break
		}
	}
	for ; j < len(b); j++ {
		if c := b[j]; c == '"' || c == '\\' || c < 0x20 {
			return j
		}
	}
	return j
}

// appendUnescaped appends the decoded JSON string contents s to dst.
// Invalid escapes are kept as they are (the line already passed the scan).
func appendUnescaped(dst, s []byte) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 >= len(s) {
			dst = append(dst, c)
			continue
		}
		i++
		switch s[i] {
		case 'n':
			dst = append(dst, '\n')
		case 't':
			dst = append(dst, '\t')
		case 'r':
			dst = append(dst, '\r')
		case 'b':
			dst = append(dst, '\b')
		case 'f':
			dst = append(dst, '\f')
		case '"', '\\', '/':
			dst = append(dst, s[i])
		case 'u':
			r, n := decodeU(s[i-1:])
			dst = utf8.AppendRune(dst, r)
			i += n - 2
		default:
			dst = append(dst, '\\', s[i])
		}
	}
	return dst
}

// decodeU decodes \uXXXX (and a following low surrogate) at the start of s;
// n is the number of bytes consumed.
func decodeU(s []byte) (rune, int) {
	hex4 := func(p []byte) (rune, bool) {
		if len(p) < 6 || p[0] != '\\' || p[1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(p[2:6]), 16, 16)
		return rune(v), err == nil
	}
	r, ok := hex4(s)
	if !ok {
		return utf8.RuneError, 2
	}
	if utf16.IsSurrogate(r) {
		if r2, ok := hex4(s[6:]); ok {
			if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
				return d, 12
			}
		}
		return utf8.RuneError, 6
	}
	return r, 6
}

// validNumber reports whether b is a JSON number.
func validNumber(b []byte) bool {
	i := 0
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	default:
		return false
	}
	if i < len(b) && b[i] == '.' {
		i++
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		if i >= len(b) || b[i] < '0' || b[i] > '9' {
			return false
		}
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
	}
	return i == len(b)
}

var knownKeys = [][]byte{[]byte("Action"), []byte("Package"), []byte("Test"), []byte("Output"),
	[]byte("ImportPath"), []byte("FailedBuild"), []byte("Elapsed")}

// foldsToKnown reports a key that encoding/json would take for a known one
// although it is not spelled exactly so. Lengths may differ: Unicode simple
// folding maps "ſ" to "s" and the Kelvin sign to "k", as encoding/json does.
func foldsToKnown(k []byte) bool {
	switch string(k) { // the keys go test writes, exactly: the common case
	case "Time", "Action", "Package", "Test", "Output", "Elapsed", "ImportPath", "FailedBuild":
		return false
	}
	for _, known := range knownKeys {
		if !bytes.Equal(k, known) && bytes.EqualFold(k, known) {
			return true
		}
	}
	return false
}

func isHex(c byte) bool { return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }

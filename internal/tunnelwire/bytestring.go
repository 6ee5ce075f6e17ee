package tunnelwire

// The strings of an HTTP message on the wire (a req's method, url and
// header names and values, a res's header names and values) are byte
// strings: each byte of the message is one character, U+0000–U+00FF.
// That is how the service's edge and agent, Node programs, read a
// message's url and headers and write them back, so a byte at or above
// 0x80 crosses as the character of its value, never as part of a UTF-8
// sequence. A character above U+00FF stands for no byte (Node refuses to
// write one): a message that has one is refused, see Control.NotBytes.
// One that is all bytes may still be no HTTP message: see ValidReq.

// appendByteString quotes the byte string s as JSON.stringify writes it:
// a byte under 0x80 as itself (escaped where JSON needs it), one at or
// above as its character in UTF-8. Nearly every such string is printable
// ASCII: one pass over it and a copy.
func appendByteString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain(s[i]) {
			return appendByteStringFrom(append(append(b, '"'), s[:i]...), s, i)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// appendByteStringFrom writes s from its first byte that is not plain,
// at i, and the closing quote.
func appendByteStringFrom(b []byte, s string, i int) []byte {
	const hex = "0123456789abcdef"
	for ; i < len(s); i++ {
		switch c := s[i]; {
		case plain(c), c == 0x7f:
			b = append(b, c)
		case c >= 0x80:
			b = append(b, 0xc0|c>>6, 0x80|c&0x3f)
		case c == '"', c == '\\':
			b = append(b, '\\', c)
		case c == '\b':
			b = append(b, `\b`...)
		case c == '\f':
			b = append(b, `\f`...)
		case c == '\n':
			b = append(b, `\n`...)
		case c == '\r':
			b = append(b, `\r`...)
		case c == '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
	}
	return append(b, '"')
}

// fromByteString is the bytes a decoded byte string stands for, and false
// when it has a character above U+00FF (s is then returned as it is).
// ASCII, nearly every string, comes back as it is.
func fromByteString(s string) (string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return fromByteStringFrom(s, i)
		}
	}
	return s, true
}

func fromByteStringFrom(s string, i int) (string, bool) {
	b := make([]byte, i, len(s))
	copy(b, s)
	for _, r := range s[i:] { // invalid UTF-8 reads as U+FFFD: no byte
		if r > 0xff {
			return s, false
		}
		b = append(b, byte(r))
	}
	return string(b), true
}

package projectopstest

import (
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
)

// whatwgHost is a special URL's host as WHATWG's host parser serialises
// it, or false where that parser fails (and new URL() throws): an IPv6
// literal in its canonical form, a host that ends in a number read as an
// IPv4 address (127.1, 0x7f.0.0.1 and 2130706433 are all 127.0.0.1), any
// other percent-decoded and in lower case. Non-ASCII domains are not put
// in punycode form (endpointKey says so).
func whatwgHost(h string) (string, bool) {
	if strings.HasPrefix(h, "[") {
		if !strings.HasSuffix(h, "]") {
			return "", false
		}
		return whatwgIPv6(h[1 : len(h)-1])
	}
	d, err := url.PathUnescape(h)
	if err != nil || d == "" || !utf8.ValidString(d) {
		return "", false
	}
	for i := 0; i < len(d); i++ {
		if c := d[i]; c <= ' ' || c == 0x7f || strings.IndexByte("#%/:<>?@[\\]^|", c) >= 0 {
			return "", false // a forbidden domain code point
		}
	}
	d = strings.ToLower(d)
	if endsInNumber(d) {
		return whatwgIPv4(d)
	}
	return d, true
}

// whatwgIPv6 serialises an IPv6 literal as WHATWG does: every piece in
// lower-case hex (an embedded IPv4 address too, so ::ffff:127.0.0.1 is
// ::ffff:7f00:1), the first longest run of two or more zero pieces as
// "::". A zone (fe80::1%25lo) is refused, as WHATWG refuses it.
func whatwgIPv6(s string) (string, bool) {
	if strings.Contains(s, "%") {
		return "", false
	}
	a, err := netip.ParseAddr(s)
	if err != nil || !a.Is6() {
		return "", false
	}
	b := a.As16()
	var pieces [8]uint16
	for i := range pieces {
		pieces[i] = uint16(b[2*i])<<8 | uint16(b[2*i+1])
	}
	start, length := -1, 1 // a single zero piece is not compressed
	for i := 0; i < 8; {
		j := i
		for j < 8 && pieces[j] == 0 {
			j++
		}
		if j-i > length {
			start, length = i, j-i
		}
		if j == i {
			j++
		}
		i = j
	}
	var out strings.Builder
	out.WriteByte('[')
	for i := 0; i < 8; i++ {
		if i == start {
			out.WriteString("::")
			i += length - 1
			continue
		}
		if i > 0 && i != start+length {
			out.WriteByte(':')
		}
		out.WriteString(strconv.FormatUint(uint64(pieces[i]), 16))
	}
	out.WriteByte(']')
	return out.String(), true
}

// endsInNumber is WHATWG's ends-in-a-number check: the last label (a
// trailing dot aside) is all digits or reads as an IPv4 number, so the
// host must parse as an IPv4 address.
func endsInNumber(h string) bool {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" {
		if len(parts) == 1 {
			return false
		}
		parts = parts[:len(parts)-1]
	}
	last := parts[len(parts)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := ipv4Number(last)
	return ok
}

// whatwgIPv4 is WHATWG's IPv4 parser: one to four dot-separated numbers,
// each decimal, octal (a leading 0) or hex (0x), the last filling the
// bytes the others leave.
func whatwgIPv4(h string) (string, bool) {
	parts := strings.Split(h, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return "", false
	}
	var addr uint64
	for i, p := range parts {
		n, ok := ipv4Number(p)
		if !ok {
			return "", false
		}
		if i < len(parts)-1 {
			if n > 255 {
				return "", false
			}
			addr |= n << (8 * (3 - i))
			continue
		}
		if n >= 1<<(8*(5-len(parts))) {
			return "", false
		}
		addr += n
	}
	return netip.AddrFrom4([4]byte{byte(addr >> 24), byte(addr >> 16), byte(addr >> 8), byte(addr)}).String(), true
}

// ipv4Number is WHATWG's IPv4 number parser; "0x" alone is 0.
func ipv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		s, base = s[2:], 16
	case len(s) >= 2 && s[0] == '0':
		s, base = s[1:], 8
	}
	if s == "" {
		return 0, true
	}
	n, err := strconv.ParseUint(s, base, 64)
	return n, err == nil
}

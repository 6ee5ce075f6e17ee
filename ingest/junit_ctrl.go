package ingest

import "io"

// ctrlFilter drops from an XML stream the control characters XML 1.0
// forbids (C0 controls but tab, newline and carriage return), raw or as
// character references (&#27;, &#x1b;), which encoding/xml refuses whole:
// JUnit writers (mocha's xunit, Expecto, testthat) keep the ANSI colour
// codes of the test output. An ANSI CSI sequence that follows an ESC
// (ESC [ 1;31 m) goes with it, so "\x1b[31mred\x1b[0m" reads as "red".
// References inside CDATA sections are text, and kept. Anything else,
// malformed XML included, passes unchanged for the decoder to judge.
type ctrlFilter struct {
	r   io.Reader
	err error
	in  [4 << 10]byte
	buf []byte // filtered output storage
	out []byte // filtered, not yet read
	ref []byte // a held-back reference ("&#...") that may name a control
	csi int    // after an ESC: 1 expects '[', 2 is in the parameters
	// Progress through "<![CDATA[" outside a section, "]]>" inside one.
	cdata       bool
	open, close int
}

// maxRef bounds a held-back reference; a longer one passes unchanged.
const maxRef = 16

func newCtrlFilter(r io.Reader) *ctrlFilter {
	return &ctrlFilter{r: r, buf: make([]byte, 0, 4<<10+maxRef)}
}

func (f *ctrlFilter) Read(p []byte) (int, error) {
	for len(f.out) == 0 {
		if f.err != nil {
			if len(f.ref) > 0 { // an unfinished reference, for the decoder to refuse
				f.out, f.ref = append(f.buf[:0], f.ref...), f.ref[:0]
				break
			}
			return 0, f.err
		}
		n, err := f.r.Read(f.in[:])
		f.out = f.filter(f.buf[:0], f.in[:n])
		f.err = err
	}
	n := copy(p, f.out)
	f.out = f.out[n:]
	return n, nil
}

const cdataOpen = "<![CDATA["

// plainByte[cdata][c]: c needs no look outside (false) or inside (true)
// a CDATA section while nothing is pending.
var plainByte = func() (t [2][256]bool) {
	for c := 0x20; c < 256; c++ {
		t[0][c] = c != '&' && c != '<'
		t[1][c] = c != ']'
	}
	t[0]['\t'], t[0]['\n'], t[0]['\r'] = true, true, true
	t[1]['\t'], t[1]['\n'], t[1]['\r'] = true, true, true
	return t
}()

func (f *ctrlFilter) filter(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		if len(f.ref) == 0 && f.csi == 0 && f.open == 0 && f.close == 0 {
			// Runs of plain text are copied whole.
			plain, j := &plainByte[0], i
			if f.cdata {
				plain = &plainByte[1]
			}
			for j < len(src) && plain[src[j]] {
				j++
			}
			dst = append(dst, src[i:j]...)
			if i = j; i == len(src) {
				break
			}
		}
		c := src[i]
		i++
		if len(f.ref) > 0 {
			hex := len(f.ref) > 2 && f.ref[2] == 'x'
			switch {
			case c == '0' && leadingZero(f.ref):
				// Leading zeros after the first say nothing: collapsed, a
				// zero-padded reference (&#000000000000027;) stays within
				// maxRef (an equivalent reference if it passes).
				continue
			case len(f.ref) == 1 && c == '#', len(f.ref) == 2 && c == 'x',
				len(f.ref) >= 2 && len(f.ref) < maxRef && (isDigit(c) || hex && isHex(c)):
				f.ref = append(f.ref, c)
				continue
			case c == ';' && len(f.ref) > 2:
				if v, ok := refValue(f.ref); ok && isCtrl(v) {
					f.ref = f.ref[:0]
					if v == 0x1b {
						f.csi = 1
					}
					continue
				}
				dst = append(append(dst, f.ref...), c)
				f.ref = f.ref[:0]
				continue
			}
			// Not a reference to a control: pass it, then read c as usual.
			dst = append(dst, f.ref...)
			f.ref = f.ref[:0]
		}
		switch f.csi {
		case 1:
			f.csi = 0
			if c == '[' {
				f.csi = 2
				continue
			}
		case 2:
			// Parameters, then a letter ends the sequence; markup
			// characters ('<', '&', ']') are never taken for part of it.
			if isDigit(c) || c == ';' || c == ':' || c == '?' {
				continue
			}
			f.csi = 0
			if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' {
				continue
			}
		}
		if c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			if c == 0x1b {
				f.csi = 1
			}
			continue
		}
		if f.cdata {
			switch {
			case c == ']':
				f.close = min(f.close+1, 2)
			case c == '>' && f.close == 2:
				f.cdata, f.close = false, 0
			default:
				f.close = 0
			}
			dst = append(dst, c)
			continue
		}
		if c == '&' {
			f.ref = append(f.ref, c)
			continue
		}
		switch {
		case c == cdataOpen[f.open]:
			if f.open++; f.open == len(cdataOpen) {
				f.cdata, f.open = true, 0
			}
		case c == '<':
			f.open = 1
		default:
			f.open = 0
		}
		dst = append(dst, c)
	}
	return dst
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// leadingZero reports whether a held reference's digits so far are one
// "0" ("&#0" or "&#x0").
func leadingZero(ref []byte) bool {
	digits := ref[min(2, len(ref)):]
	if len(ref) > 2 && ref[2] == 'x' {
		digits = ref[3:]
	}
	return len(digits) == 1 && digits[0] == '0'
}

// isCtrl reports whether XML 1.0 forbids the C0 control v.
func isCtrl(v int) bool { return v < 0x20 && v != '\t' && v != '\n' && v != '\r' }

// refValue is the code point of a reference "&#d…" or "&#xh…" (without
// its ';'), if it has digits.
func refValue(ref []byte) (int, bool) {
	digits, base := ref[2:], 10
	if len(ref) > 2 && ref[2] == 'x' {
		digits, base = ref[3:], 16
	}
	if len(digits) == 0 {
		return 0, false
	}
	v := 0
	for _, d := range digits {
		switch {
		case isDigit(d):
			v = v*base + int(d-'0')
		case 'a' <= d && d <= 'f':
			v = v*base + int(d-'a'+10)
		default:
			v = v*base + int(d-'A'+10)
		}
		if v > 0x10ffff { // not a control; stop before it overflows
			return v, true
		}
	}
	return v, true
}

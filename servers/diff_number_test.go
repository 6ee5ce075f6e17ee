package servers

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// sameNumber compares numbers by value, as text: exponents far past what
// big.Rat parses (1e7) included, in time linear in their length.
func TestSameNumber(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"1", "1.0", true},
		{"1", "1e0", true},
		{"1", "10e-1", true},
		{"100", "1e2", true},
		{"1e2", "1E+2", true},
		{"0.5", "5e-1", true},
		{"1.5", "15e-1", true},
		{"0", "-0", true},
		{"0", "0.000e99", true},
		{"-2.50", "-25e-1", true},
		{"9007199254740993", "9007199254740992", false},
		{"9007199254740993", "9007199254740993.0", true},
		{"12", "21", false},
		{"1", "-1", false},
		{"1", "0", false},
		{"1e2", "1e-2", false},
		{"1e999999", "1E999999", true},
		{"1e10000000", "10e9999999", true},
		{"1e10000000", "1e10000001", false},
		// Past int64: only the low digits of the exponent move.
		{"1e100000000000000000000000", "0.01e100000000000000000000002", true},
		{"1e100000000000000000000000", "1e100000000000000000000001", false},
		{"-1e-100000000000000000000000", "-10e-100000000000000000000001", true},
		{"1e1000000000000000000", "100e999999999999999998", true},      // 10^18+1 on both sides of 18 digits
		{"0.001e1000000000000000000", "1e999999999999999997", true},    // a borrow
		{"1e99999999999999999999", "0.1e100000000000000000000", true},  // a carry through the high digits
		{"1e99999999999999999999", "0.1e100000000000000000001", false}, // ... and one off
		{"1e-1000000000000000000", "0.1e-999999999999999999", true},
		{"1e", "1e", true}, // not a number: equal only to itself
		{"1e", "1", false},
		{"01", "1", false},
	} {
		if got := sameNumber(json.Number(c.a), json.Number(c.b)); got != c.same {
			t.Errorf("sameNumber(%s, %s) = %v, want %v", c.a, c.b, got, c.same)
		}
		if got := sameNumber(json.Number(c.b), json.Number(c.a)); got != c.same {
			t.Errorf("sameNumber(%s, %s) = %v, want %v", c.b, c.a, got, c.same)
		}
	}
}

// A number costs its length, not its value: no big arithmetic (big.Rat
// made 10^999999 to compare 1e999999 with 1E999999, 42 allocations and
// some 20 ms a pair). The count of allocations does not grow with the
// number's length (a fraction, a long exponent, a carry and many digits
// included), so the time is linear in it.
func TestSameNumberCost(t *testing.T) {
	nines := func(n int) string { return strings.Repeat("9", n) }
	pairs := func(n int) [][2]string {
		return [][2]string{
			{"1e" + nines(n), "1E" + nines(n)},
			{"1.5e" + nines(n), "15e" + nines(n-1) + "8"},           // a carry through every digit
			{"-0.1e-" + nines(n), "-1e-1" + strings.Repeat("0", n)}, // a borrow through every digit
			{strings.Repeat("12", n) + ".0", strings.Repeat("12", n)},
			{"0." + strings.Repeat("12", n), strings.Repeat("12", n) + "e-" + strconv.Itoa(2*n)},
		}
	}
	allocs := func(n int) []float64 {
		var out []float64
		for _, c := range pairs(n) {
			out = append(out, testing.AllocsPerRun(100, func() {
				if !sameNumber(json.Number(c[0]), json.Number(c[1])) {
					t.Fatalf("%.20s... and %.20s... differ", c[0], c[1])
				}
			}))
		}
		return out
	}
	if short, long := allocs(1<<8), allocs(1<<16); !slices.Equal(short, long) {
		t.Errorf("allocations of each pair, numbers of %d and %d digits: %v, %v", 1<<8, 1<<16, short, long)
	}
}

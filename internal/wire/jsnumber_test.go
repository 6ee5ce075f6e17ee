package wire

import (
	"encoding/json"
	"math"
	"testing"
)

// JSNumber matches JavaScript's String(v) at the notation cut-offs
// (1e-6 and 1e21, each side), for negatives, -0, shortest digits and a
// JSON integer past 2^53 (which JavaScript, like Go, reads as the nearest
// double). The wants are what node prints for String(v).
func TestJSNumberString(t *testing.T) {
	for raw, want := range map[string]string{
		"0": "0", "-0": "0", "0.1": "0.1", "2.50": "2.5", "-1.5": "-1.5",
		"1e20": "100000000000000000000", "1e21": "1e+21", "-1e21": "-1e+21",
		"999999999999999900000": "999999999999999900000", "1.5e300": "1.5e+300",
		"1e-6": "0.000001", "1e-7": "1e-7", "-1e-7": "-1e-7", "1.5e-7": "1.5e-7",
		"0.0000012345": "0.0000012345", "123e-20": "1.23e-18", "5e-324": "5e-324",
		"1e-100": "1e-100", "123456789012": "123456789012",
		"9007199254740993":       "9007199254740992", // 2^53+1 reads as 2^53
		"1.7976931348623157e308": "1.7976931348623157e+308",
	} {
		var v float64
		if err := json.Unmarshal([]byte(raw), &v); err != nil {
			t.Fatal(err)
		}
		if got := JSNumber(v); got != want {
			t.Errorf("JSNumber(%s) = %q, want %q", raw, got, want)
		}
	}
}

// Outside -0, the cut-offs and exponent spelling agree with encoding/json's
// float64 encoding (ES6 number formatting), checked across magnitudes.
func TestJSNumberStringAgreesWithEncodingJSON(t *testing.T) {
	for e := -320; e <= 308; e++ {
		for _, m := range []float64{1, 1.25, 9.999999999999999} {
			v := m * math.Pow(10, float64(e))
			if math.IsInf(v, 0) || v == 0 {
				continue
			}
			for _, x := range []float64{v, -v} {
				b, _ := json.Marshal(x)
				if got := JSNumber(x); got != string(b) {
					t.Fatalf("JSNumber(%v) = %q, encoding/json %s", x, got, b)
				}
			}
		}
	}
}

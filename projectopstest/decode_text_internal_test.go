package projectopstest

import "testing"

func TestDuplicateKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in, path string
		dup      bool
	}{
		{`{"a":1,"b":2}`, "", false},
		{`{"a":1,"a":2}`, "a", true},
		{`{"a":1,"\u0061":2}`, "a", true},
		{`{"a":"x,\"a\":{","b":[1,{"a":1}]}`, "", false},
		{`{"a":{"b":1},"c":{"b":2}}`, "", false},
		{`{"x":[{"k":1},{"k":1,"k":2}]}`, "x[1].k", true},
		{`{"x":[[1,2],[{"y":{"z":0,"z":1}}]]}`, "x[1][0].y.z", true},
		{`[{"a":1},{"a":2}]`, "", false},
		{`{"a":1,"a"`, "a", true},
		{`{"a":"unterminated`, "", false},
		{`{"k":1,` + manyKeys(40) + `,"k":2}`, "k", true},
		{`{` + manyKeys(40) + `}`, "", false},
	} {
		path, dup := duplicateKey([]byte(tc.in))
		if path != tc.path || dup != tc.dup {
			t.Errorf("duplicateKey(%.40s) = %q, %t; want %q, %t", tc.in, path, dup, tc.path, tc.dup)
		}
	}
}

// manyKeys is n distinct members "k0":0,...
func manyKeys(n int) string {
	s := ""
	for i := range n {
		if i > 0 {
			s += ","
		}
		s += `"k` + string(rune('a'+i%26)) + string(rune('a'+i/26)) + `":0`
	}
	return s
}

package edge

import "testing"

// TestQueryGetAsTheService: each query and name read as Hono's
// c.req.query(name) reads them (the triples were read from hono 4.12.12's
// getQueryParam): a bad escape stays raw text, only '&' separates.
func TestQueryGetAsTheService(t *testing.T) {
	t.Parallel()
	for _, c := range [][3]string{
		{"foo=%zz", "foo", "%zz"},
		{"trace=%E0%A4%A", "trace", "%E0%A4%A"},
		{"x=100%", "x", "100%"},
		{"cursor=%zz", "cursor", "%zz"},
		{"a=b+c%20d", "a", "b c d"},
		{"a=%2B", "a", "+"},
		{"a=%C3%A9%FF", "a", "%C3%A9%FF"},
		{"a=%C3%A9x%FF", "a", "\u00e9x%FF"},
		{"a=%41%zz%42", "a", "A%zzB"},
		{"a=1&a=2", "a", "1"},
		{"a", "a", ""},
		{"a&a=2", "a", ""},
		{"b=1", "a", ""},
		{"li%6Dit=5&limit=7", "limit", "7"},
		{"li%6Dit=5", "limit", "5"},
		{"a+b=1", "a b", "1"},
		{"%61=1&a=2", "a", "2"},
		{"a=1;b=2", "a", "1;b=2"},
		{"a=%ED%A0%80", "a", "%ED%A0%80"},
		{"a=%00", "a", "\x00"},
		{"=x&a=1", "a", "1"},
		{"a=x=y", "a", "x=y"},
		{"ab=1&a=2", "a", "2"},
		{"&&a=3", "a", "3"},
		{"a=%e2%82%ac", "a", "\u20ac"},
		{"a=%%41", "a", "%A"},
		{"a=%4", "a", "%4"},
		{"limit=%zz&limit=5", "limit", "%zz"},
		{"x=%zz&limit=5+", "limit", "5 "},
	} {
		if got := Query(c[0]).Get(c[1]); got != c[2] {
			t.Errorf("Query(%q).Get(%q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestQueryGetPlainDoesNotAllocate: a query without escapes is read in
// place.
func TestQueryGetPlainDoesNotAllocate(t *testing.T) {
	q := Query("limit=5&cursor=abc")
	if n := testing.AllocsPerRun(100, func() { _ = q.Get("cursor") }); n != 0 {
		t.Errorf("Get allocates %v times", n)
	}
}

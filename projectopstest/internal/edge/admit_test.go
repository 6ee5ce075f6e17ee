package edge

import (
	"net/url"
	"testing"
)

// queryError fails exactly where url.ParseQuery does.
func FuzzQueryError(f *testing.F) {
	for _, q := range []string{"", "k=s3cret", "k=a&b=c", "a;b", "k=%zz", "k=%41", "a+b=c+d", "&&", "=", "k=a=b"} {
		f.Add(q)
	}
	f.Fuzz(func(t *testing.T, q string) {
		_, want := url.ParseQuery(q)
		if got := queryError(q); (got == nil) != (want == nil) {
			t.Fatalf("queryError(%q) = %v, ParseQuery: %v", q, got, want)
		}
	})
}

package ingest

import (
	"fmt"
	"strings"
	"testing"
)

// runSecretsDoc is a JSON array of n results whose error strings hold
// escapes when esc is set, and the first run secret of runSecretsRedactor
// in the middle one when hit is.
func runSecretsDoc(n int, esc, hit bool) []byte {
	var b strings.Builder
	b.WriteByte('[')
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		s := fmt.Sprintf("line %d of output: ok ran something useful here", i)
		if esc {
			s += `\n\t\"q\"`
		}
		if hit && i == n/2 {
			s += " token=ya29/Zq9+Xw8=Vu7Ts6Rp5"
		}
		fmt.Fprintf(&b, `{"caseTitle":"c%d","passed":true,"durationMs":%d,"error":"%s"}`, i, i, s)
	}
	b.WriteByte(']')
	return []byte(b.String())
}

func runSecretsRedactor() redactor {
	return redactor{}.withValues("ya29/Zq9+Xw8=Vu7Ts6Rp5", "client-secret-abcdef123", "https://h.example/x?k=SECRETSECRET")
}

// One match among 5000 strings with escapes costs one scan of the
// document, not a clean (and a decode) of every string: the old gate then
// clean of each string allocated 6 times per string.
func TestRedactRunSecretsAllocsIndependentOfStrings(t *testing.T) {
	rd := runSecretsRedactor()
	doc := runSecretsDoc(5000, true, true)
	var out []byte
	allocs := testing.AllocsPerRun(3, func() { out = rd.apply(append([]byte(nil), doc...)) })
	if strings.Contains(string(out), "ya29/") {
		t.Fatalf("secret left: the document was not cleaned")
	}
	if allocs > 100 {
		t.Errorf("%v allocations for one match among 5000 strings, want a handful", allocs)
	}
}

func BenchmarkRedactRunSecrets(b *testing.B) {
	rd := runSecretsRedactor()
	for _, c := range []struct {
		name     string
		esc, hit bool
	}{{"plain", false, false}, {"escapes", true, false}, {"escapes-hit", true, true}} {
		doc := runSecretsDoc(5000, c.esc, c.hit)
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(doc)))
			b.ReportAllocs()
			for range b.N {
				_ = rd.apply(append([]byte(nil), doc...))
			}
		})
	}
}

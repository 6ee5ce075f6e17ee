package wire

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// minSurvivor is the shortest run of a secret's bytes FuzzSecretInsideSpelling
// counts as a leak: a shorter one could be any word's.
const minSurvivor = 8

// insideSpellings are the ways FuzzSecretInsideSpelling writes a secret in text,
// one per shape: each a spelling SecretScrubber takes a value of
// minScrubbed bytes or more out in.
var insideSpellings = []func(string) string{
	func(v string) string { return v },
	url.QueryEscape,
	url.PathEscape,
	jsonInner,
	uEscapeAll,
	func(v string) string { return url.QueryEscape(url.QueryEscape(v)) }, // two layers: %252F
	func(v string) string { return jsonInner(url.QueryEscape(v)) },       // a URL in a JSON string
}

// jsonInner is v as encoding/json writes it inside a string, without the quotes.
func jsonInner(v string) string {
	b, _ := json.Marshal(v)
	return string(b[1 : len(b)-1])
}

// uEscapeAll is v with every byte but ASCII letters and digits as a JSON
// \uXXXX (v is ASCII here).
func uEscapeAll(v string) string {
	var b strings.Builder
	for i := range len(v) {
		if c := v[i]; isWordByte(c) {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, `\u%04x`, c)
		}
	}
	return b.String()
}

// fuzzSecret is raw as a secret of printable ASCII without '[', ']',
// '<' and '>' (the marker's and the frame's bytes), padded to at least
// minScrubbed bytes.
func fuzzSecret(raw string) string {
	var b strings.Builder
	for i := range len(raw) {
		if c := raw[i]; c > ' ' && c < 0x7f && !strings.ContainsRune("[]<>", rune(c)) {
			b.WriteByte(c)
		}
	}
	for b.Len() < minScrubbed {
		b.WriteString("Zq7/x9@k")
	}
	return b.String()
}

// FuzzSecretInsideSpelling checks that one secret never hides part of
// another. Secret B is written in text in one of insideSpellings (shape), and
// secret A is a run of that spelling (from at, n bytes: shorter or longer
// than B), so A, found as written, lies inside B's spelling; with third, C
// is a run of A's own spelling in the same shape, written in the text
// too. The secrets go to SecretScrubber in the order order picks. The
// property: after the output is split at the markers, no piece holds
// minSurvivor consecutive bytes of A, B or C as written, the pieces
// being what the scrubber left of text whose only other bytes are the
// frame's '<' and '>', which no secret holds.
func FuzzSecretInsideSpelling(f *testing.F) {
	for shape := range insideSpellings {
		// A shorter than B, in its middle; A longer than B, where the
		// shape lengthens B; A a short whole token, and C from A.
		f.Add("leading-part/secret/trailing-part", uint8(shape), uint8(10), uint8(14), false, uint8(0))
		f.Add("leading-part/secret/trailing-part", uint8(shape), uint8(10), uint8(14), true, uint8(1))
		f.Add("a/b/c/d/e/f/g/h/tail-of-the-secret", uint8(shape), uint8(0), uint8(34), false, uint8(1))
		f.Add("a/b/c/d/e/f/g/h/tail-of-the-secret", uint8(shape), uint8(0), uint8(34), true, uint8(2))
		f.Add("pin/7304-long secret", uint8(shape), uint8(6), uint8(4), true, uint8(5))
	}
	f.Fuzz(func(t *testing.T, raw string, shape, at, n uint8, third bool, order uint8) {
		spell := insideSpellings[int(shape)%len(insideSpellings)]
		b := fuzzSecret(raw)
		spB := spell(b)
		from := int(at) % len(spB)
		a := spB[from:min(len(spB), from+max(int(n), minTokenScrubbed))]
		secrets := []string{a, b}
		text := "<" + spB + ">"
		if third {
			spA := spell(a)
			c := spA[len(spA)/3:]
			secrets = append(secrets, c)
			text += "<" + spA + ">"
		}
		k := int(order) % len(secrets) // a rotation of the secrets
		secrets = append(secrets[k:len(secrets):len(secrets)], secrets[:k]...)
		got := SecretScrubber(secrets...)(text)
		for _, piece := range strings.Split(got, "[REDACTED]") {
			for _, s := range secrets {
				if run := survivor(piece, s); run != "" {
					t.Fatalf("secrets %q, text %q: scrubbed %q keeps %q of %q", secrets, text, got, run, s)
				}
			}
		}
	})
}

// survivor is a run of minSurvivor consecutive bytes of secret found in
// piece, or "".
func survivor(piece, secret string) string {
	for i := 0; i+minSurvivor <= len(secret); i++ {
		if run := secret[i : i+minSurvivor]; strings.Contains(piece, run) {
			return run
		}
	}
	return ""
}

package transport

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/projectops/projectops-go/shared"
)

// Property (secrets never appear in error text, in any spelling): an API
// key of minHeaderRedacted bytes or more, quoted back in any spelling
// spellAny knows, is replaced whole by Redact and in a network failure's
// text. In an error envelope's message (the code kept) it is replaced by
// the marker and no spelling of the key is left, but a fragment of a
// repetitive key's spelling may stay beside the marker: the raw body is
// cleaned one JSON layer deeper, where the key's match may be the
// spelling's tail alone.
//
//	go test -run '^$' -fuzz FuzzKeySpelling -fuzztime 3m ./internal/transport
func FuzzKeySpelling(f *testing.F) {
	for _, seed := range []struct {
		v string
		n uint64
	}{
		{testKey, 1},
		{"sk_live_AbC/12+34=", 2},
		{`sk_"quoted"\key`, 3},
		{"sk_live_wörd😀x", 4},
		{"sk_%2F_already", 5},
	} {
		f.Add(seed.v, seed.n)
	}
	errNet := errors.New("network down")
	f.Fuzz(func(t *testing.T, v string, seed uint64) {
		// A key an Authorization header can carry: no control character,
		// no space around it. At most 1 KiB, as FuzzCredentialHeaderSpelling.
		if len(v) < minHeaderRedacted || len(v) > 1<<10 || strings.TrimSpace(v) != v ||
			strings.ContainsFunc(v, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return
		}
		spelt := spellAny(v, rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)))
		// NUL bytes around it: no spelling of v holds one, so the
		// replacement must end exactly there.
		redact := New(Config{APIKey: v}).Redact
		if got, want := redact("\x00"+spelt+"\x00"), "\x00"+keyMarker+"\x00"; got != want {
			t.Fatalf("key %q spelt %q: Redact gives %q, want %q", v, spelt, got, want)
		}
		do := func(rt roundTripFunc) error {
			tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0; c.APIKey = v })
			return tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x", Class: Read}, &struct{}{})
		}
		if utf8.ValidString(spelt) { // JSON carries no other text: a byte that is no UTF-8 is sent as U+FFFD
			msg, _ := json.Marshal("\x00" + spelt + "\x00")
			err := do(func(r *http.Request) (*http.Response, error) {
				return jsonAnswer(r, http.StatusBadRequest, `{"code":"VALIDATION_ERROR","message":`+string(msg)+`}`, nil), nil
			})
			// The raw body is cleaned first, where the spelling is JSON-escaped
			// once more: a repetitive key's match there may be the tail of
			// the spelling alone ("00000000" in "\\u0030%30…"), so the
			// message must hold the marker and no spelling of the key,
			// not the marker alone.
			e, ok := errors.AsType[*shared.Error](err)
			if !ok || e.Code != shared.CodeValidation || !strings.Contains(e.Message, keyMarker) ||
				!strings.HasPrefix(e.Message, "\x00") || !strings.HasSuffix(e.Message, "\x00") || redact(e.Message) != e.Message {
				t.Fatalf("key %q spelt %q: error %v, want the code kept and the key replaced in the message", v, spelt, err)
			}
		}
		err := do(func(*http.Request) (*http.Response, error) {
			return nil, fmt.Errorf("proxy refused \x00%s\x00: %w", spelt, errNet)
		})
		if !errors.Is(err, errNet) || !strings.Contains(err.Error(), "proxy refused \x00"+keyMarker+"\x00") {
			t.Fatalf("key %q spelt %q: network failure shows %q", v, spelt, err.Error())
		}
	})
}

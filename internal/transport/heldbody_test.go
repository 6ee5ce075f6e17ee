package transport

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// shortHeld is a body that hands over its unread bytes (heldBody).
type shortHeld struct{ *strings.Reader }

func (h shortHeld) TakeBytes() []byte {
	b := make([]byte, h.Len())
	_, _ = h.Read(b)
	return b
}
func (shortHeld) Close() error { return nil }

// A body shorter than its Content-Length must fail the same way whether or
// not it is held: before the change io.ReadFull gave io.EOF for an empty
// body ("reading response: EOF"); a held body now gives
// io.ErrUnexpectedEOF.
func TestHeldBodyShortErrorSameAsStreamed(t *testing.T) {
	for _, body := range []string{"", `{"id"`} {
		errFor := func(held bool) error {
			rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
				var b io.ReadCloser = io.NopCloser(strings.NewReader(body))
				if held {
					b = shortHeld{strings.NewReader(body)}
				}
				return &http.Response{StatusCode: 200, Header: http.Header{}, ContentLength: 10,
					Body: b, Request: r}, nil
			})
			tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0 })
			var out map[string]any
			return tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/x"}, &out)
		}
		plain, held := errFor(false), errFor(true)
		if plain == nil || held == nil || plain.Error() != held.Error() {
			t.Errorf("body %q, Content-Length 10:\n streamed: %v\n held:     %v", body, plain, held)
		}
	}
}

package tunnelwire

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"github.com/projectops/projectops-go/internal/wire"
)

// Head is the JSON payload of Request and Response frames.
type Head struct {
	Method string      `json:"method,omitempty"`
	URI    string      `json:"uri,omitempty"` // path and query, the ?k= secret removed
	Status int         `json:"status,omitempty"`
	Header http.Header `json:"header,omitempty"`
}

// EncodeHead builds a Request or Response frame alone, as a message of
// its own. Its JSON is byte for byte what encoding/json makes of h
// (FuzzEncodeHead holds it to that), written without reflection by
// Group.AppendHead, which the relay's hot path uses.
func EncodeHead(k Kind, id uint32, h *Head) ([]byte, error) {
	g, err := Group(nil).AppendHead(k, id, h)
	if err != nil {
		return nil, err
	}
	return g[HeaderLen+4:], nil
}

func appendHead(b []byte, h *Head) []byte {
	b = append(b, '{')
	sep := func() {
		if b[len(b)-1] != '{' {
			b = append(b, ',')
		}
	}
	if h.Method != "" {
		b = appendString(append(b, `"method":`...), h.Method)
	}
	if h.URI != "" {
		sep()
		b = appendString(append(b, `"uri":`...), h.URI)
	}
	if h.Status != 0 {
		sep()
		b = strconv.AppendInt(append(b, `"status":`...), int64(h.Status), 10)
	}
	if len(h.Header) > 0 {
		sep()
		b = append(b, `"header":{`...)
		var stack [24]string
		keys := slices.AppendSeq(stack[:0], maps.Keys(h.Header))
		slices.Sort(keys)
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(appendString(b, k), ':')
			vs := h.Header[k]
			if vs == nil {
				b = append(b, "null"...)
				continue
			}
			b = append(b, '[')
			for j, v := range vs {
				if j > 0 {
					b = append(b, ',')
				}
				b = appendString(b, v)
			}
			b = append(b, ']')
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// appendString quotes s as encoding/json does. Header names and values are
// plain ASCII nearly always; anything else takes encoding/json itself.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain(s[i]) {
			q, _ := json.Marshal(s) // a string always marshals
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plain reports a byte encoding/json copies as is: printable ASCII other
// than the quote, the backslash and the HTML characters it escapes.
func plain(c byte) bool {
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
}

// DecodeHead parses a Request or Response payload. A head as EncodeHead
// writes it (compact, ASCII, no escapes) is read by a direct scan; any
// other JSON goes through json/v2 with encoding/json's leniency: invalid
// UTF-8 (HTTP allows obs-text in values) and repeated names are accepted,
// names match case-insensitively. Header names come back canonical, as
// net/http's server reads them (a relay may send them in lower case):
// names that differ only in case are one, their values joined in the
// order of the names sorted. FuzzDecodeHead holds the scan to the same
// result as json/v2 wherever it accepts.
func DecodeHead(p []byte) (*Head, error) {
	if h, ok := scanHead(p); ok {
		return h, nil
	}
	var h Head
	if err := jsonv2.Unmarshal(p, &h, headDecode); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	h.Header = wire.CanonicalHeader(h.Header)
	return &h, nil
}

// headDecode are DecodeHead's json/v2 options: encoding/json's leniency.
var headDecode = jsonv2.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true),
	jsonv2.MatchCaseInsensitiveNames(true))

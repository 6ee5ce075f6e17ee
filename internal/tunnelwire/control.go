package tunnelwire

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Control message types: the "t" member of a text message.
const (
	Hello  = "hello"   // edge → agent: the session is routed to; proto, slug and limits
	Req    = "req"     // edge → agent: a request's head; its body follows as ReqChunk messages
	ReqEnd = "req_end" // edge → agent: the request body is complete
	Res    = "res"     // agent → edge: the response head; its body follows as ResChunk messages
	ResEnd = "res_end" // agent → edge: the response body is complete
	Abort  = "abort"   // both ways: the stream is over, cut short (code says why)
)

// Abort codes.
const (
	AbortTimeout       = "timeout"        // the edge gave up waiting
	AbortTooLarge      = "too_large"      // the request body passed MaxReqBody
	AbortClientGone    = "client_gone"    // the public caller went away
	AbortUpstreamError = "upstream_error" // the agent's local server failed
	AbortOverloaded    = "overloaded"     // too many requests in flight
)

// Control is a decoded text message. Fields a type does not use are zero.
type Control struct {
	T       string
	ID      uint32
	Proto   int         // hello
	Slug    string      // hello
	Limits  Limits      // hello
	Method  string      // req
	URL     string      // req: path and query as the public caller sent them, ?k= included
	Status  int         // res
	Header  http.Header // req, res: the "headers" pairs, names canonical as net/http reads them
	HasBody bool        // req
	Code    string      // abort
	Msg     string      // abort, optional

	// NotBytes reports a req or res whose method, url or a header has a
	// character above U+00FF: no byte stands for it (see bytestring.go),
	// so the message is no HTTP message and is to be refused. Those
	// strings are then as the JSON text spelled them.
	NotBytes bool
}

// AppendHello appends a hello message.
func AppendHello(b []byte, slug string, l Limits) []byte {
	b = append(b, `{"t":"hello","proto":`...)
	b = strconv.AppendInt(b, Proto, 10)
	b = appendString(append(b, `,"slug":`...), slug)
	b = strconv.AppendInt(append(b, `,"limits":{"maxReqBody":`...), l.MaxReqBody, 10)
	b = strconv.AppendInt(append(b, `,"chunk":`...), int64(l.Chunk), 10)
	b = strconv.AppendInt(append(b, `,"maxInflight":`...), int64(l.MaxInflight), 10)
	return append(b, "}}"...)
}

// AppendReq appends a req message. Header names go out in lower case when
// lower is set (as the service's edge sends them), else as they are.
func AppendReq(b []byte, id uint32, method, url string, h http.Header, hasBody, lower bool) []byte {
	b = appendStart(b, Req, id)
	b = appendByteString(append(b, `,"method":`...), method)
	b = appendByteString(append(b, `,"url":`...), url)
	b = appendHeaders(append(b, `,"headers":`...), h, lower)
	if hasBody {
		return append(b, `,"hasBody":true}`...)
	}
	return append(b, `,"hasBody":false}`...)
}

// AppendRes appends a res message.
func AppendRes(b []byte, id uint32, status int, h http.Header) []byte {
	b = appendStart(b, Res, id)
	b = strconv.AppendInt(append(b, `,"status":`...), int64(status), 10)
	b = appendHeaders(append(b, `,"headers":`...), h, false)
	return append(b, '}')
}

// AppendEnd appends a req_end or res_end message (t says which).
func AppendEnd(b []byte, t string, id uint32) []byte {
	return append(appendStart(b, t, id), '}')
}

// AppendAbort appends an abort message; msg may be empty (it is left out)
// and is cut to MaxAbortMsg.
func AppendAbort(b []byte, id uint32, code, msg string) []byte {
	b = appendString(append(appendStart(b, Abort, id), `,"code":`...), code)
	if msg != "" {
		if len(msg) > MaxAbortMsg {
			msg = msg[:MaxAbortMsg]
		}
		b = appendString(append(b, `,"msg":`...), msg)
	}
	return append(b, '}')
}

func appendStart(b []byte, t string, id uint32) []byte {
	b = append(append(append(b, `{"t":"`...), t...), `","id":`...)
	return strconv.AppendUint(b, uint64(id), 10)
}

// appendHeaders writes h as [name, value] pairs of byte strings, names
// sorted, each value of a name its own pair.
func appendHeaders(b []byte, h http.Header, lower bool) []byte {
	b = append(b, '[')
	var stack [24]string
	keys := slices.AppendSeq(stack[:0], maps.Keys(h))
	slices.Sort(keys)
	first := true
	for _, k := range keys {
		for _, v := range h[k] {
			if !first {
				b = append(b, ',')
			}
			first = false
			b = append(b, '[')
			if lower {
				b = appendLowerString(b, k)
			} else {
				b = appendByteString(b, k)
			}
			b = appendByteString(append(b, ','), v)
			b = append(b, ']')
		}
	}
	return append(b, ']')
}

// appendLowerString is appendByteString of s in ASCII lower case (no
// escape it writes has an upper-case letter).
func appendLowerString(b []byte, s string) []byte {
	at := len(b)
	b = appendByteString(b, s)
	for i := at; i < len(b); i++ {
		if c := b[i]; 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return b
}

// appendString quotes the text s (a slug, an abort's code or message) as
// JSON.stringify does, no HTML escapes. Plain ASCII nearly always;
// anything else takes encoding/json, which also turns invalid UTF-8 into
// U+FFFD.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if !plain(s[i]) {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			_ = enc.Encode(s) // a string always encodes
			return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}

// plain reports a byte a JSON string holds as is: printable ASCII other
// than the quote and the backslash.
func plain(c byte) bool {
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'
}

// DecodeControl parses a text message. A message as this package writes
// it (compact, no escapes) is read by a direct scan; any other JSON goes
// through json/v2 with JSON.parse's leniency: unknown members are ignored,
// a repeated member's last value counts, invalid UTF-8 is accepted. Names
// match exactly. The method, url and headers are byte strings (see
// bytestring.go): each character U+0000–U+00FF comes back as its byte,
// and one above sets NotBytes. Header names come back canonical, as
// net/http's server reads them; repeated names (in any case) have their
// values joined in order. FuzzDecodeControl holds the scan to json/v2's result. The scan
// may rewrite the case of header names in p, which it reads as a buffer
// the caller is done with.
func DecodeControl(p []byte) (Control, error) {
	if c, ok := scanControl(p); ok {
		return c, nil
	}
	var raw struct {
		T       string     `json:"t"`
		ID      uint32     `json:"id"`
		Proto   int        `json:"proto"`
		Slug    string     `json:"slug"`
		Limits  Limits     `json:"limits"`
		Method  string     `json:"method"`
		URL     string     `json:"url"`
		Status  int        `json:"status"`
		Headers [][]string `json:"headers"`
		HasBody bool       `json:"hasBody"`
		Code    string     `json:"code"`
		Msg     string     `json:"msg"`
	}
	if err := jsonv2.Unmarshal(p, &raw, controlDecode); err != nil {
		return Control{}, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	c := Control{T: raw.T, ID: raw.ID, Proto: raw.Proto, Slug: raw.Slug, Limits: raw.Limits,
		Status: raw.Status, HasBody: raw.HasBody, Code: raw.Code, Msg: raw.Msg}
	bytesOf := func(s string) string {
		b, ok := fromByteString(s)
		c.NotBytes = c.NotBytes || !ok
		return b
	}
	c.Method, c.URL = bytesOf(raw.Method), bytesOf(raw.URL)
	if raw.Headers != nil {
		c.Header = make(http.Header, len(raw.Headers))
		for _, kv := range raw.Headers {
			// A longer pair counts by its first two, as the service's
			// agent reads one (destructuring); a shorter one is no pair.
			if len(kv) < 2 {
				return Control{}, fmt.Errorf("%w: a header pair of %d strings", ErrMalformed, len(kv))
			}
			k := http.CanonicalHeaderKey(bytesOf(kv[0]))
			c.Header[k] = append(c.Header[k], bytesOf(kv[1]))
		}
	}
	return c, nil
}

// controlDecode are DecodeControl's json/v2 options: JSON.parse's leniency.
var controlDecode = jsonv2.JoinOptions(jsontext.AllowInvalidUTF8(true), jsontext.AllowDuplicateNames(true))

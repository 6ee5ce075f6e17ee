package projectopstest

import (
	"bytes"
	"io"
	"net/http"
)

// maxFaultBody bounds what bufferBody reads: the largest body any route
// accepts (an artifact upload) and one byte.
const maxFaultBody = 32<<20 + 1

// bufferBody reads r's body into memory before a fault's latency, putting
// it back for the handler. net/http only watches for a departed client once
// the request body has been read; without this a POST whose client left
// during the wait would still run when the wait ended.
func bufferBody(r *http.Request) {
	if r.Body == nil || r.Body == http.NoBody {
		return
	}
	b, err := io.ReadAll(io.LimitReader(r.Body, maxFaultBody))
	if err != nil {
		panic(http.ErrAbortHandler) // the client went away while sending
	}
	r.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), r.Body), r.Body}
}

package transport

import (
	"errors"
	"io"

	"github.com/projectops/projectops-go/option"
)

// DefaultMaxResponseBytes caps a success body: generous for the largest
// listings, exports and traces, while a runaway or hostile body fails
// before it can exhaust memory.
const DefaultMaxResponseBytes = option.DefaultMaxResponseBytes

// errOverCap is what cappedReader returns once the cap is passed; Do turns
// it into *shared.ResponseTooLargeError.
var errOverCap = errors.New("response body over the cap")

// cappedReader reads at most left bytes of r and fails with errOverCap if
// r holds more: a body of unknown length is read no further than one byte
// past the cap.
type cappedReader struct {
	r    io.Reader
	left int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if c.left <= 0 {
		// At the cap: one more byte means the body is too large.
		var one [1]byte
		n, err := c.r.Read(one[:])
		if n > 0 {
			return 0, errOverCap
		}
		return 0, err
	}
	if int64(len(p)) > c.left {
		p = p[:c.left]
	}
	n, err := c.r.Read(p)
	c.left -= int64(n)
	return n, err
}

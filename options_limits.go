package projectops

import (
	"fmt"

	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/shared"
)

// DefaultMaxResponseBytes is the largest success body the client reads
// unless WithMaxResponseBytes says otherwise (32 MiB).
const DefaultMaxResponseBytes = transport.DefaultMaxResponseBytes

// ResponseTooLargeError is returned when a success body is larger than the
// client's cap; nothing of it is decoded. Use errors.As to get it.
type ResponseTooLargeError = shared.ResponseTooLargeError

// WithMaxResponseBytes caps the size of a success body (default
// DefaultMaxResponseBytes). A larger body fails the call with a
// *ResponseTooLargeError instead of being read into memory. Error bodies
// have their own, smaller cap.
func WithMaxResponseBytes(n int64) Option {
	return func(s *settings) error {
		if n <= 0 {
			return fmt.Errorf("projectops: WithMaxResponseBytes: need a positive size, got %d", n)
		}
		s.maxResponseBytes = n
		return nil
	}
}

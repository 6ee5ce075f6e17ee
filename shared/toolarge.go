package shared

import "fmt"

// ResponseTooLargeError is returned when a success response's body is larger
// than the client's cap (option.WithMaxResponseBytes). Nothing of it is decoded.
type ResponseTooLargeError struct {
	// Method and Path identify the request (path without query string).
	Method, Path string
	// Limit is the cap in bytes that the body exceeded.
	Limit int64
	// ContentLength is the declared length, or -1 when the body was
	// streamed and cut at the cap.
	ContentLength int64
}

// Error implements error.
func (e *ResponseTooLargeError) Error() string {
	size := "more than that"
	if e.ContentLength >= 0 {
		size = fmt.Sprintf("%d bytes", e.ContentLength)
	}
	return fmt.Sprintf("projectops: %s %s: response body over the %d-byte limit (%s); raise it with option.WithMaxResponseBytes",
		e.Method, e.Path, e.Limit, size)
}

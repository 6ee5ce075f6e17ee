package shared

import "errors"

// Page is one page of a collection: {items, nextCursor}. NextCursor is empty
// on the last page; pass it as the next call's cursor to go on. Every
// listing also has an iterator that follows the cursors itself.
type Page[T any] struct {
	Items      []T    `json:"items"`
	NextCursor string `json:"nextCursor,omitempty"`
}

// ErrCursorLoop is yielded by an iterator whose service handed back a cursor
// it had already returned, which would otherwise loop forever.
var ErrCursorLoop = errors.New("projectops: pagination cursor repeated")

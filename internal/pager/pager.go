// Package pager implements the SDK's cursor iteration discipline once, for
// every listing: lazy, follows nextCursor through empty pages, stops with an
// error on a repeated cursor, and yields an error at most once.
package pager

import (
	"context"
	"fmt"
	"iter"

	"github.com/projectops/projectops-go/internal/transport"
	"github.com/projectops/projectops-go/shared"
)

// Page is one page of a collection (package shared defines it).
type Page[T any] = shared.Page[T]

// ErrCursorLoop is returned by an iterator when the service hands back a
// cursor it already returned (package shared defines it).
var ErrCursorLoop = shared.ErrCursorLoop

// Fetch loads the page at cursor ("" for the first page). Called with a
// context that has ended, it sends nothing and returns an error matching
// the context's: transport.Do does, naming the call, so Seq leaves the
// check to it rather than yield the context's bare error.
type Fetch[T any] func(ctx context.Context, cursor string) (*Page[T], error)

// Seq returns an iterator over every item of every page, starting at cursor
// start. Nothing is fetched until the iteration begins; each iteration starts
// over from start, resetting the WithResponseInto targets of the call ctx
// carries (transport.KeepOptions): after a range they describe the last
// page it fetched, or nothing, never an earlier range's.
func Seq[T any](ctx context.Context, start string, fetch Fetch[T]) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		transport.ResetResponses(ctx)
		var zero T
		seen := map[string]struct{}{}
		cursor := start
		if start != "" {
			seen[start] = struct{}{}
		}
		for {
			page, err := fetch(ctx, cursor)
			if err != nil {
				yield(zero, err)
				return
			}
			for _, it := range page.Items {
				if !yield(it, nil) {
					return
				}
			}
			next := page.NextCursor
			if next == "" {
				return
			}
			if _, dup := seen[next]; dup {
				yield(zero, fmt.Errorf("%w: %q", ErrCursorLoop, truncate(next)))
				return
			}
			seen[next] = struct{}{}
			cursor = next
		}
	}
}

func truncate(s string) string {
	if len(s) > 32 {
		return s[:32] + "…"
	}
	return s
}

// Copy returns a copy of the caller's params (zero value for nil), so that
// an iterator handed out is not affected by later changes to them.
func Copy[T any](p *T) T {
	var v T
	if p != nil {
		v = *p
	}
	return v
}

// Collect drains an iterator, stopping at the first error.
func Collect[T any](seq iter.Seq2[T, error]) ([]T, error) {
	var out []T
	for v, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// Fail returns an iterator that yields err once and nothing else: what an
// All method hands out for parameters it refuses before any request.
func Fail[T any](err error) iter.Seq2[T, error] {
	return func(yield func(T, error) bool) {
		var zero T
		yield(zero, err)
	}
}

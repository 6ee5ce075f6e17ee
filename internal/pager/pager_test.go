package pager_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/internal/pager"
)

// book is a scripted listing: pages by cursor, plus a record of the cursors
// asked for.
type book struct {
	mu     sync.Mutex
	pages  map[string]*pager.Page[int]
	errs   map[string]error
	called []string
}

func (b *book) fetch(ctx context.Context, cursor string) (*pager.Page[int], error) {
	if err := ctx.Err(); err != nil {
		// As transport.Do: nothing is sent, and the error names the call.
		return nil, fmt.Errorf("book %q: %w", cursor, err)
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	b.called = append(b.called, cursor)
	if err := b.errs[cursor]; err != nil {
		return nil, err
	}
	p, ok := b.pages[cursor]
	if !ok {
		return nil, errors.New("no page at cursor " + cursor)
	}
	return p, nil
}

func (b *book) calls() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return append([]string(nil), b.called...)
}

func page(next string, items ...int) *pager.Page[int] {
	return &pager.Page[int]{Items: items, NextCursor: next}
}

// drain ranges over seq without breaking on errors (the iterator itself must
// stop after yielding one) and returns items and errors in order.
func drain(seq func(func(int, error) bool)) (items []int, errs []error) {
	for v, err := range seq {
		if err != nil {
			errs = append(errs, err)
			continue
		}
		items = append(items, v)
	}
	return items, errs
}

var errBoom = errors.New("boom")

func TestSeq(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		start     string
		pages     map[string]*pager.Page[int]
		errs      map[string]error
		wantItems []int
		wantCalls []string
		wantErr   error
	}{
		{
			name:      "single page",
			pages:     map[string]*pager.Page[int]{"": page("", 1, 2, 3)},
			wantItems: []int{1, 2, 3},
			wantCalls: []string{""},
		},
		{
			name:      "empty listing",
			pages:     map[string]*pager.Page[int]{"": page("")},
			wantCalls: []string{""},
		},
		{
			name: "follows cursors through empty pages",
			pages: map[string]*pager.Page[int]{
				"":   page("c1", 1),
				"c1": page("c2"),
				"c2": page("c3"),
				"c3": page("c4", 2, 3),
				"c4": page(""),
			},
			wantItems: []int{1, 2, 3},
			wantCalls: []string{"", "c1", "c2", "c3", "c4"},
		},
		{
			name:      "starts at the given cursor",
			start:     "c1",
			pages:     map[string]*pager.Page[int]{"c1": page("c2", 5), "c2": page("", 6)},
			wantItems: []int{5, 6},
			wantCalls: []string{"c1", "c2"},
		},
		{
			name:      "repeated adjacent cursor",
			pages:     map[string]*pager.Page[int]{"": page("c1", 1), "c1": page("c1", 2)},
			wantItems: []int{1, 2},
			wantCalls: []string{"", "c1"},
			wantErr:   pager.ErrCursorLoop,
		},
		{
			name: "repeat of an earlier, non-adjacent cursor",
			pages: map[string]*pager.Page[int]{
				"":  page("a", 1),
				"a": page("b", 2),
				"b": page("c", 3),
				"c": page("a", 4),
			},
			wantItems: []int{1, 2, 3, 4},
			wantCalls: []string{"", "a", "b", "c"},
			wantErr:   pager.ErrCursorLoop,
		},
		{
			name:      "repeat of the start cursor",
			start:     "s",
			pages:     map[string]*pager.Page[int]{"s": page("t", 1), "t": page("s", 2)},
			wantItems: []int{1, 2},
			wantCalls: []string{"s", "t"},
			wantErr:   pager.ErrCursorLoop,
		},
		{
			name:      "error on the first page",
			errs:      map[string]error{"": errBoom},
			wantCalls: []string{""},
			wantErr:   errBoom,
		},
		{
			name:      "error on a later page keeps earlier items",
			pages:     map[string]*pager.Page[int]{"": page("c1", 1, 2), "c2": page("", 9)},
			errs:      map[string]error{"c1": errBoom},
			wantItems: []int{1, 2},
			wantCalls: []string{"", "c1"},
			wantErr:   errBoom,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			b := &book{pages: tt.pages, errs: tt.errs}
			items, errs := drain(pager.Seq(t.Context(), tt.start, b.fetch))
			if diff := cmp.Diff(tt.wantItems, items); diff != "" {
				t.Errorf("items (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.wantCalls, b.calls()); diff != "" {
				t.Errorf("fetched cursors (-want +got):\n%s", diff)
			}
			switch {
			case tt.wantErr == nil && len(errs) != 0:
				t.Errorf("errors = %v, want none", errs)
			case tt.wantErr != nil && len(errs) != 1:
				t.Errorf("errors = %v, want exactly one %v", errs, tt.wantErr)
			case tt.wantErr != nil && !errors.Is(errs[0], tt.wantErr):
				t.Errorf("error = %v, want %v", errs[0], tt.wantErr)
			}
		})
	}
}

func TestSeqLazyAndRestartable(t *testing.T) {
	t.Parallel()
	b := &book{pages: map[string]*pager.Page[int]{"": page("c1", 1), "c1": page("", 2)}}
	seq := pager.Seq(t.Context(), "", b.fetch)
	if c := b.calls(); len(c) != 0 {
		t.Fatalf("fetched %v before iteration began", c)
	}
	for range 2 {
		items, errs := drain(seq)
		if diff := cmp.Diff([]int{1, 2}, items); diff != "" || errs != nil {
			t.Errorf("iteration: items (-want +got):\n%s errs %v", diff, errs)
		}
	}
	if diff := cmp.Diff([]string{"", "c1", "", "c1"}, b.calls()); diff != "" {
		t.Errorf("each iteration should start over (-want +got):\n%s", diff)
	}
}

func TestSeqEarlyBreak(t *testing.T) {
	t.Parallel()
	b := &book{pages: map[string]*pager.Page[int]{"": page("c1", 1, 2), "c1": page("", 3)}}
	var got []int
	for v, err := range pager.Seq(t.Context(), "", b.fetch) {
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, v)
		break
	}
	if diff := cmp.Diff([]int{1}, got); diff != "" {
		t.Errorf("items (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{""}, b.calls()); diff != "" {
		t.Errorf("fetched after break (-want +got):\n%s", diff)
	}

	// Breaking on the last item of a page must not fetch the next one.
	b = &book{pages: map[string]*pager.Page[int]{"": page("c1", 1, 2), "c1": page("", 3)}}
	for v := range pager.Seq(t.Context(), "", b.fetch) {
		if v == 2 {
			break
		}
	}
	if diff := cmp.Diff([]string{""}, b.calls()); diff != "" {
		t.Errorf("fetched after break on a page's last item (-want +got):\n%s", diff)
	}
}

func TestSeqContext(t *testing.T) {
	t.Parallel()
	t.Run("cancelled before iteration", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(t.Context())
		b := &book{pages: map[string]*pager.Page[int]{"": page("", 1)}}
		seq := pager.Seq(ctx, "", b.fetch)
		cancel()
		items, errs := drain(seq)
		// Seq yields fetch's error, which names the call, not the bare
		// context error.
		if len(items) != 0 || len(errs) != 1 || !errors.Is(errs[0], context.Canceled) || errs[0].Error() != `book "": context canceled` {
			t.Errorf("items %v, errs %v; want no items and one context.Canceled from fetch", items, errs)
		}
		if c := b.calls(); len(c) != 0 {
			t.Errorf("fetched %v with a cancelled context", c)
		}
	})
	t.Run("cancelled between pages", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(t.Context())
		defer cancel()
		b := &book{pages: map[string]*pager.Page[int]{"": page("c1", 1), "c1": page("", 2)}}
		var items []int
		var errs []error
		for v, err := range pager.Seq(ctx, "", b.fetch) {
			if err != nil {
				errs = append(errs, err)
				continue
			}
			items = append(items, v)
			cancel()
		}
		if diff := cmp.Diff([]int{1}, items); diff != "" {
			t.Errorf("items (-want +got):\n%s", diff)
		}
		if len(errs) != 1 || !errors.Is(errs[0], context.Canceled) || errs[0].Error() != `book "c1": context canceled` {
			t.Errorf("errs = %v, want one context.Canceled from fetch", errs)
		}
		if diff := cmp.Diff([]string{""}, b.calls()); diff != "" {
			t.Errorf("fetched cursors (-want +got):\n%s", diff)
		}
	})
	t.Run("fetch sees the iterator's context", func(t *testing.T) {
		t.Parallel()
		type key struct{}
		ctx := context.WithValue(t.Context(), key{}, "v")
		var saw any
		fetch := func(ctx context.Context, _ string) (*pager.Page[int], error) {
			saw = ctx.Value(key{})
			return page(""), nil
		}
		drain(pager.Seq(ctx, "", fetch))
		if saw != "v" {
			t.Errorf("fetch context value = %v, want v", saw)
		}
	})
}

func TestCursorLoopMessage(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 200)
	b := &book{pages: map[string]*pager.Page[int]{"": page(long), long: page(long)}}
	_, errs := drain(pager.Seq(t.Context(), "", b.fetch))
	if len(errs) != 1 || !errors.Is(errs[0], pager.ErrCursorLoop) {
		t.Fatalf("errs = %v, want one ErrCursorLoop", errs)
	}
	if msg := errs[0].Error(); strings.Contains(msg, long) || !strings.Contains(msg, strings.Repeat("x", 32)+"…") {
		t.Errorf("cursor not truncated in %q", msg)
	}
}

func TestCopy(t *testing.T) {
	t.Parallel()
	type params struct {
		A string
		N int
	}
	if got := pager.Copy[params](nil); got != (params{}) {
		t.Errorf("Copy(nil) = %+v, want zero", got)
	}
	p := &params{A: "a", N: 1}
	c := pager.Copy(p)
	p.A, p.N = "changed", 2
	if c != (params{A: "a", N: 1}) {
		t.Errorf("copy changed with the original: %+v", c)
	}
}

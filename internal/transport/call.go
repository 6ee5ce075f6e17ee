package transport

import (
	"context"
	"net/url"
)

// Call is Do for methods that return a decoded value: it allocates the
// result and returns nil with the error on failure.
func Call[T any](ctx context.Context, t *Transport, req *Request) (*T, error) {
	var out T
	if err := t.Do(ctx, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Query builds query values from name/value pairs, skipping empty values.
func Query(kv ...string) url.Values {
	var q url.Values
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] == "" {
			continue
		}
		if q == nil {
			q = url.Values{}
		}
		q.Set(kv[i], kv[i+1])
	}
	return q
}

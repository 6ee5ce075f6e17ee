package transport

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/shared"
)

func TestCall(t *testing.T) {
	t.Parallel()
	type me struct {
		ID    string `json:"id"`
		Email string `json:"email"`
	}
	mock, _ := mockRoute(t, http.MethodGet, "/me", reply{status: 200, body: `{"id":"u1","email":"a@b.c","plan":"free"}`})
	tr, _ := newTestTransport(t, mock)
	got, err := Call[me](t.Context(), tr, &Request{Method: http.MethodGet, Route: "/me"})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(&me{ID: "u1", Email: "a@b.c"}, got); diff != "" {
		t.Errorf("Call (-want +got):\n%s", diff)
	}

	mock, _ = mockRoute(t, http.MethodGet, "/me", envelope(404, shared.CodeNotFound))
	tr, _ = newTestTransport(t, mock)
	got, err = Call[me](t.Context(), tr, &Request{Method: http.MethodGet, Route: "/me"})
	if got != nil || !errors.Is(err, shared.ErrNotFound) {
		t.Errorf("Call = %v, %v; want nil and NOT_FOUND", got, err)
	}
}

func TestQuery(t *testing.T) {
	t.Parallel()
	tests := []struct {
		kv   []string
		want url.Values
	}{
		{nil, nil},
		{[]string{"a", ""}, nil},
		{[]string{"a", "1", "b", "", "c", "x y"}, url.Values{"a": {"1"}, "c": {"x y"}}},
		{[]string{"a", "1", "a", "2"}, url.Values{"a": {"2"}}},
		{[]string{"a", "1", "dangling"}, url.Values{"a": {"1"}}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Query(tt.kv...)); diff != "" {
			t.Errorf("Query(%q) (-want +got):\n%s", tt.kv, diff)
		}
	}
}

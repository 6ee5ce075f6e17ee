package projectops_test

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"

	projectops "github.com/projectops/projectops-go"
)

// WithMaxResponseBytes caps success bodies: a body over it is a typed
// error, one within it decodes; a non-positive cap is refused.
func TestWithMaxResponseBytes(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	name := strings.Repeat("n", 2000)
	s.handle(http.MethodGet, "/me", fixed(200, `{"id":"u1","name":"`+name+`"}`))
	for _, tc := range []struct {
		limit    int64
		tooLarge bool
	}{{1024, true}, {4096, false}} {
		c := s.client(option.WithMaxResponseBytes(tc.limit))
		me, err := c.Catalog.Me(t.Context())
		var tl *projectops.ResponseTooLargeError
		if errors.As(err, &tl) != tc.tooLarge || (tc.tooLarge && tl.Limit != tc.limit) {
			t.Errorf("limit %d: Me = %v, %v; want too large: %v", tc.limit, me, err, tc.tooLarge)
		}
		if !tc.tooLarge && (err != nil || me.ID != "u1") {
			t.Errorf("limit %d: Me = %v, %v", tc.limit, me, err)
		}
	}
	for _, n := range []int64{0, -1} {
		if _, err := projectops.NewClient(option.WithoutEnvironment(), option.WithMaxResponseBytes(n)); err == nil {
			t.Errorf("WithMaxResponseBytes(%d) accepted", n)
		}
	}
}

package projectopstest_test

import (
	"errors"
	"net/http"
	"sync/atomic"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// A closed double's calls fail at once: the SDK does not retry
// ErrServerClosed (no retry can change it), on a read either.
func TestClosedServerIsNotRetried(t *testing.T) {
	t.Parallel()
	srv, err := projectopstest.NewServer()
	if err != nil {
		t.Fatal(err)
	}
	ws := srv.Default()
	var attempts atomic.Int32
	counting := rtFunc(func(r *http.Request) (*http.Response, error) {
		attempts.Add(1)
		return srv.Transport().RoundTrip(r)
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(srv.URL()),
		option.WithAPIKey(ws.APIKey), option.WithTransport(counting))
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.Me(t.Context()); !errors.Is(err, projectopstest.ErrServerClosed) || attempts.Load() != 1 {
		t.Errorf("Me on a closed double: %v after %d attempts; want ErrServerClosed after 1", err, attempts.Load())
	}
}

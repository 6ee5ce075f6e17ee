package transport

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/option"
)

// WithShownRequestID stores each response's request id as error text
// shows it: a 200's id cleaned of the call's credential header values,
// which a WithResponseInto target (a success's metadata) keeps, and ""
// after a network failure, not an earlier call's id.
func TestWithShownRequestID(t *testing.T) {
	t.Parallel()
	const tok = "proxy-secret-0123456789"
	fail := false
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		if fail {
			return nil, errors.New("connection refused")
		}
		return jsonAnswer(r, http.StatusOK, `{}`, http.Header{RequestIDHeader: {"req_" + r.Header.Get("X-Proxy-Token")}}), nil
	})
	tr, _ := newTestTransport(t, rt, func(c *Config) { c.MaxRetries = 0 })
	var id string
	var meta option.Response
	ctx := WithShownRequestID(WithOptions(context.Background(), []option.RequestOption{
		option.WithHeader("X-Proxy-Token", tok), option.WithResponseInto(&meta)}), &id)
	if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, &struct{}{}); err != nil {
		t.Fatal(err)
	}
	if id != "req_REDACTED" || meta.RequestID != "req_"+tok {
		t.Errorf("shown id %q, WithResponseInto's %q; want req_REDACTED and the success's as it came", id, meta.RequestID)
	}
	fail = true
	if err := tr.Do(ctx, &Request{Method: http.MethodGet, Route: "/x"}, &struct{}{}); err == nil {
		t.Fatal("no error from a failed round trip")
	}
	if id != "" {
		t.Errorf("after a network failure the shown id is %q, want none", id)
	}
	var nilCtx context.Context // a caller bug Do refuses with a typed error
	if WithShownRequestID(nilCtx, &id) != nil {
		t.Error("a nil context was replaced")
	}
}

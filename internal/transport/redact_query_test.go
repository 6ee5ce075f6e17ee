package transport

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/jarcoal/httpmock"
)

// A base64-style key ("+", "/", "=" are legal: checkKey refuses only
// whitespace and control characters) pasted into a query filter, and
// reflected by a gateway into the error envelope's message as the request
// URI, reaches Error.Message and err.Error() query-escaped: Redact knows
// the raw and the path-escaped spellings only.
func TestKeyQueryEscapedHiddenInError(t *testing.T) {
	t.Parallel()
	const key = "sk_Zm9v+YmFy/YmF6=="
	rt := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		resp := httpmock.NewStringResponse(400,
			fmt.Sprintf(`{"code":"VALIDATION_ERROR","message":"bad filter in %s"}`, r.URL.RequestURI()))
		resp.Request = r
		return resp, nil
	})
	tr, _ := newTestTransport(t, rt, func(c *Config) { c.APIKey = key; c.MaxRetries = 0 })
	err := tr.Do(t.Context(), &Request{Method: http.MethodGet, Route: "/chat-sessions",
		Query: Query("projectId", key), Class: Read}, nil)
	if err == nil {
		t.Fatal("no error")
	}
	for _, spelling := range []string{key, url.PathEscape(key), url.QueryEscape(key)} {
		if strings.Contains(err.Error(), spelling) {
			t.Errorf("error text shows the key as %q: %v", spelling, err)
		}
	}
	if got := tr.Redact("q=" + url.QueryEscape(key)); strings.Contains(got, url.QueryEscape(key)) {
		t.Errorf("Redact leaves the query-escaped key: %q", got)
	}
}

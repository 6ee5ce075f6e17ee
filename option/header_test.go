package option

import (
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/shared"
)

// An option of the caller's own (a RequestOption is an exported func type)
// that fills Config.Header directly is checked as WithHeader is, on the
// client and per call alike.
func TestConfigHeaderCheckedWhateverSetIt(t *testing.T) {
	t.Parallel()
	for _, h := range [][2]string{{"Keep-Alive", "timeout=5"}, {"trailer", "X-Sum"}, {"connection", "close"},
		{"Authorization", "Bearer x"}, {"X-Ok", "a\nb"}, {"Bad Name", "v"}} {
		own := func(c *Config) error {
			c.Header = http.Header{h[0]: {h[1]}} // as written, not canonicalized
			return nil
		}
		for name, apply := range map[string]func([]RequestOption) (Config, error){"ForClient": ForClient, "ForCall": ForCall} {
			_, err := apply([]RequestOption{own})
			if e, ok := errors.AsType[*shared.Error](err); !ok || e.Code != shared.CodeValidation || e.Details["field"] != "Config.Header" {
				t.Errorf("%s with Config.Header %q: %v; want a VALIDATION_ERROR naming Config.Header", name, h, err)
			}
		}
	}
	if _, err := ForCall([]RequestOption{func(c *Config) error { c.Header = http.Header{"X-Trace": {"abc"}}; return nil }}); err != nil {
		t.Errorf("an ordinary header set by a custom option: %v", err)
	}
}

// A header the SDK sets itself is refused with the option to use instead,
// and Connection with the way to close connections that works.
func TestRefusedHeaderNamesItsOption(t *testing.T) {
	t.Parallel()
	for h, want := range map[string]string{"Authorization": "WithAPIKey", "idempotency-key": "WithIdempotencyKey",
		"X-Mcpjam-Idempotency-Key": "WithIdempotencyKey", "X-Idempotency-Key": "WithIdempotencyKey",
		"User-Agent": "WithUserAgent", "Host": "WithBaseURL", "Connection": "DisableKeepAlives"} {
		_, err := ForCall([]RequestOption{WithHeader(h, "v")})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("WithHeader(%q): %v; want it to name %s", h, err, want)
		}
	}
}

// Every refused header's reason is its own: Trailer is end-to-end, so it
// is not called connection-specific; the others are.
func TestRefusedHeaderReasons(t *testing.T) {
	t.Parallel()
	for _, h := range []string{"Connection", "Keep-Alive", "Proxy-Connection", "TE", "Transfer-Encoding", "Upgrade", "Trailer"} {
		_, err := ForCall([]RequestOption{WithHeader(h, "x")})
		if err == nil {
			t.Fatalf("WithHeader(%q) accepted", h)
		}
		if hop := strings.Contains(err.Error(), "connection-specific"); hop == (h == "Trailer") {
			t.Errorf("WithHeader(%q): %v", h, err)
		}
	}
}

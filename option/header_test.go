package option

import (
	"errors"
	"fmt"
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
		{"Authorization", "Bearer x"}, {"X-Ok", "a\nb"}, {"Bad Name", "v"},
		// A name is checked as stored: net/http refuses to send one with
		// space around it, and a read would retry that as a network error.
		{" X-Trace", "v"}, {"X-Trace\t", "v"}} {
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

// WithHeader trims space around the name, the caller's typing, and stores
// the name as it is sent.
func TestWithHeaderTrimsName(t *testing.T) {
	t.Parallel()
	c, err := ForCall([]RequestOption{WithHeader(" x-trace ", "abc")})
	if err != nil || len(c.Header) != 1 || c.Header["X-Trace"][0] != "abc" {
		t.Errorf("WithHeader(\" x-trace \"): %v, %q; want X-Trace stored", err, c.Header)
	}
}

// Of several bad fields, the refusal names the first in name order, the
// same whatever order the map gives.
func TestConfigHeaderRefusalNamesFirstField(t *testing.T) {
	t.Parallel()
	h := http.Header{"X-D": {"ok"}, "C Bad": {"v"}, "X-E": {"a\nb"}, "B Bad": {"v"}, "X-A": {"ok"}}
	for range 20 {
		_, err := ForCall([]RequestOption{func(c *Config) error { c.Header = h; return nil }})
		if err == nil || !strings.Contains(err.Error(), `"B Bad"`) {
			t.Fatalf("refusal %v; want it to name \"B Bad\"", err)
		}
	}
}

// Checking a call's valid headers allocates nothing: every call with a
// header of its own passes there, and only a refusal sorts the names.
func TestCheckHeaderAllocatesNothing(t *testing.T) {
	h := http.Header{"X-Trace-Token": {"trace-0123456789"}, "X-Model": {"gpt-4o-mini"}}
	if n := testing.AllocsPerRun(100, func() { _ = checkHeader(h) }); n != 0 {
		t.Errorf("checkHeader of valid headers: %v allocations, want 0", n)
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

// The header options edit Config as http.Header's methods do, in order,
// and note the names whose client values a call replaces.
func TestHeaderOptionsEditInOrder(t *testing.T) {
	t.Parallel()
	c, err := ForCall([]RequestOption{
		WithHeaderAdd("X-A", "1"), WithHeader("x-a", "2"), WithHeaderAdd("X-A", "3"),
		WithHeaderAdd("X-B", "1"),
		WithHeader("X-C", "1"), WithHeaderDel("x-c"),
	})
	if err != nil {
		t.Fatal(err)
	}
	want := http.Header{"X-A": {"2", "3"}, "X-B": {"1"}}
	if fmt.Sprint(c.Header) != fmt.Sprint(want) {
		t.Errorf("Header = %v, want %v", c.Header, want)
	}
	if fmt.Sprint(c.ReplaceHeader) != "[X-A X-C]" {
		t.Errorf("ReplaceHeader = %q, want [X-A X-C]: the names WithHeader and WithHeaderDel set", c.ReplaceHeader)
	}
}

// An option of the caller's own that fills Config.ReplaceHeader is checked
// too: the SDK's own headers are not the caller's to remove.
func TestConfigReplaceHeaderChecked(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"Authorization", "user-agent", "Bad Name"} {
		own := func(c *Config) error { c.ReplaceHeader = []string{name}; return nil }
		for level, apply := range map[string]func([]RequestOption) (Config, error){"ForClient": ForClient, "ForCall": ForCall} {
			_, err := apply([]RequestOption{own})
			if e, ok := errors.AsType[*shared.Error](err); !ok || e.Code != shared.CodeValidation || e.Details["field"] != "Config.ReplaceHeader" {
				t.Errorf("%s with ReplaceHeader %q: %v; want a VALIDATION_ERROR naming Config.ReplaceHeader", level, name, err)
			}
		}
	}
}

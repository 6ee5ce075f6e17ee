package option

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// Each option records its value; the Config prints and logs without the
// key or the headers (a proxy's token, say) in every verb a log might use.
func TestApplyRecordsAndRedacts(t *testing.T) {
	t.Parallel()
	const key = "sk_test_SECRET123"
	c, err := ForClient([]RequestOption{WithAPIKey(key), WithBaseURL("http://127.0.0.1:8080/api/v1"),
		WithMaxRetries(0), WithRetryBackoff(time.Millisecond, time.Second), WithMaxRetryAfter(0),
		WithRateLimit(60, 10), WithUserAgent("app/1"), WithoutEnvironment(), WithHeader("x-app", "a"), WithHeader("X-Proxy-Token", "HSECRET"),
		WithMaxResponseBytes(1 << 20), WithLogger(slog.Default())})
	if err != nil {
		t.Fatal(err)
	}
	if c.APIKey() != key || c.BaseURL != "http://127.0.0.1:8080/api/v1" || *c.MaxRetries != 0 ||
		c.RetryBaseDelay != time.Millisecond || c.RetryMaxDelay != time.Second || *c.MaxRetryAfter != 0 ||
		c.RatePerMinute != 60 || c.RateBurst != 10 || c.UserAgent != "app/1" || !c.NoEnvironment ||
		c.Header.Get("X-App") != "a" || c.MaxResponseBytes != 1<<20 || c.Logger == nil {
		t.Errorf("Config = %+v", c)
	}
	for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%d", "%x", "%q", "%T %[1]v"} {
		for _, v := range []any{c, &c} {
			if s := fmt.Sprintf(verb, v); strings.Contains(s, "SECRET") || strings.Contains(s, "534543524554") {
				t.Errorf("%s of a Config shows the key: %s", verb, s)
			}
		}
	}
	var logged bytes.Buffer
	for _, v := range []any{c, &c} {
		slog.New(slog.NewJSONHandler(&logged, nil)).Info("config", "cfg", v)
		slog.New(slog.NewTextHandler(&logged, nil)).Info("config", "cfg", v)
	}
	if s := logged.String(); strings.Contains(s, "SECRET") || strings.Count(s, "APIKey:set") != 4 {
		t.Errorf("slog of a Config shows a secret or not its String: %s", s)
	}
	if _, err := ForCall([]RequestOption{WithAPIKey(key)}); err == nil || strings.Contains(err.Error(), "SECRET") {
		t.Errorf("WithAPIKey on a call: %v", err)
	}
}

// A user agent HTTP cannot carry is refused up front: net/http refused
// every request, each retried as a network error.
func TestUserAgentRefusesControlCharacters(t *testing.T) {
	t.Parallel()
	for _, ua := range []string{"app/1\x00", "app/1\x7f", "app/1\x1b[31m", "app/1\n"} {
		if _, err := ForClient([]RequestOption{WithUserAgent(ua)}); err == nil {
			t.Errorf("WithUserAgent(%q) accepted", ua)
		}
	}
	if _, err := ForClient([]RequestOption{WithUserAgent("app/1 (linux; +https://x.example)")}); err != nil {
		t.Errorf("a plain user agent: %v", err)
	}
}

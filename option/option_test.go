package option

import (
	"bytes"
	"encoding/json"
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

// A Config nested in a logged struct, slice or map, which slog's JSON
// handler encodes with encoding/json (no LogValue there), and a Config
// given to json.Marshal, encode as its String.
func TestConfigNestedInJSONShowsNoHeader(t *testing.T) {
	t.Parallel()
	c, err := ForClient([]RequestOption{WithHeader("X-Proxy-Token", "HSECRET")})
	if err != nil {
		t.Fatal(err)
	}
	c.IdempotencyKey = "IDEMSECRET"
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("x", "cfgs", []Config{c}, "wrapped", struct{ Cfg Config }{c},
		"byName", map[string]*Config{"c": &c})
	if s := b.String(); strings.Contains(s, "SECRET") || strings.Count(s, "APIKey:unset") != 3 {
		t.Errorf("slog JSON of a nested Config: %s", s)
	}
	for _, v := range []any{c, &c} {
		if out, err := json.Marshal(v); err != nil || strings.Contains(string(out), "SECRET") {
			t.Errorf("json.Marshal(%T) = %s, %v", v, out, err)
		}
	}
}

// A Config nested in a struct that slog's text handler logs (through fmt)
// shows neither key nor headers as an exported field, by value or pointer,
// nor in a slice; as an unexported field, which fmt prints field by field
// without Config's methods, the key shows only as an address.
func TestConfigNestedInTextLog(t *testing.T) {
	t.Parallel()
	c, err := ForClient([]RequestOption{WithAPIKey("sk_live_KEYSECRET"), WithHeader("X-Proxy-Token", "HSECRET")})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	l := slog.New(slog.NewTextHandler(&b, nil))
	l.Info("a", "wrapped", struct{ Cfg Config }{c}, "ptrs", []*Config{&c}, "ptrInStruct", struct{ Cfg *Config }{&c})
	if s := b.String(); strings.Contains(s, "SECRET") {
		t.Errorf("an exported nested Config shows a secret: %s", s)
	}
	b.Reset()
	l.Info("b", "unexported", struct{ cfg Config }{c})
	if s := b.String(); strings.Contains(s, "KEYSECRET") {
		t.Errorf("an unexported nested Config shows the key: %s", s)
	}
}

// A nil *Config logs as such: a value-receiver LogValue, called through
// nil, made slog log "LogValue panicked" with a stack.
func TestNilConfigPointerLogs(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	slog.New(slog.NewJSONHandler(&b, nil)).Info("x", "cfg", (*Config)(nil))
	slog.New(slog.NewTextHandler(&b, nil)).Info("x", "cfg", (*Config)(nil))
	if s := b.String(); strings.Contains(s, "panicked") || strings.Count(s, "option.Config(nil)") != 2 {
		t.Errorf("slog of a nil *Config: %s", s)
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

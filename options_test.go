package projectops

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	"github.com/projectops/projectops-go/internal/apierr"
)

const optKey = "sk_test_SECRET123"

func TestBadOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []Option
		want string // a fragment of the error text
	}{
		{"empty key", []Option{WithAPIKey("")}, "empty API key"},
		{"key without sk_ prefix", []Option{WithAPIKey("pk_SECRET123")}, `must start with "sk_"`},
		{"key with uppercase prefix", []Option{WithAPIKey("SK_SECRET123")}, `must start with "sk_"`},
		{"key with a space", []Option{WithAPIKey("sk_test SECRET123")}, "whitespace"},
		{"key with a newline", []Option{WithAPIKey(optKey + "\n")}, "whitespace"},
		{"key with a tab", []Option{WithAPIKey("sk_\tSECRET123")}, "whitespace"},
		{"key with a NUL", []Option{WithAPIKey("sk_SECRET\x00123")}, "control"},
		{"key with DEL", []Option{WithAPIKey("sk_SECRET\x7f123")}, "control"},
		{"unparsable URL", []Option{WithBaseURL("http://host:SECRET123/api/v1")}, "unparsable base URL"},
		{"unparsable URL (bad IPv6)", []Option{WithBaseURL("http://[::1/api/v1")}, "unparsable base URL"},
		{"URL without scheme", []Option{WithBaseURL("api.example.test/api/v1")}, "scheme and a host"},
		{"key given as the URL", []Option{WithBaseURL(optKey)}, "scheme and a host"},
		{"URL with another scheme", []Option{WithBaseURL("ftp://api.example.test/api/v1")}, "scheme and a host"},
		{"URL without host", []Option{WithBaseURL("https:///api/v1")}, "scheme and a host"},
		{"empty URL", []Option{WithBaseURL("")}, "scheme and a host"},
		{"URL with query", []Option{WithBaseURL("https://api.example.test/api/v1?key=sk_test_SECRET123")}, "query"},
		{"URL with empty query", []Option{WithBaseURL("https://api.example.test/api/v1?")}, "query"},
		{"URL with fragment", []Option{WithBaseURL("https://api.example.test/api/v1#SECRET123")}, "fragment"},
		{"URL with empty fragment", []Option{WithBaseURL("https://api.example.test/api/v1#")}, "fragment"},
		{"URL with password", []Option{WithBaseURL("https://user:SECRET123@api.example.test/api/v1")}, "credentials"},
		{"URL with key as user", []Option{WithBaseURL("https://" + optKey + "@api.example.test/api/v1")}, "credentials"},
		{"negative retries", []Option{WithMaxRetries(-1)}, "negative retries"},
		{"zero base delay", []Option{WithRetryBackoff(0, time.Second)}, "0 < base <= max"},
		{"zero max delay", []Option{WithRetryBackoff(time.Second, 0)}, "0 < base <= max"},
		{"negative base delay", []Option{WithRetryBackoff(-time.Second, time.Second)}, "0 < base <= max"},
		{"max below base", []Option{WithRetryBackoff(2*time.Second, time.Second)}, "0 < base <= max"},
		{"negative MaxRetryAfter", []Option{WithMaxRetryAfter(-time.Second)}, "negative duration"},
		{"zero rate", []Option{WithRateLimit(0, 10)}, "positive rate and burst"},
		{"zero burst", []Option{WithRateLimit(60, 0)}, "positive rate and burst"},
		{"negative rate", []Option{WithRateLimit(-60, 10)}, "positive rate and burst"},
		{"nil http client", []Option{WithHTTPClient(nil)}, "nil client"},
		{"nil transport", []Option{WithTransport(nil)}, "nil RoundTripper"},
		{"nil logger", []Option{WithLogger(nil)}, "nil logger"},
		{"user agent with newline", []Option{WithUserAgent("app\r\nX-Injected: 1")}, "newline"},
		{"client and transport together", []Option{WithHTTPClient(&http.Client{}), WithTransport(httpmock.NewMockTransport())}, "exclusive"},
		{"bad option after good ones", []Option{WithAPIKey(optKey), WithMaxRetries(2), WithMaxRetries(-2)}, "negative retries"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := NewClient(append([]Option{WithoutEnvironment()}, tt.opts...)...)
			if err == nil || c != nil {
				t.Fatalf("NewClient = %v, %v; want an error", c, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q does not mention %q", err, tt.want)
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error echoes the secret: %q", err)
			}
			if !strings.HasPrefix(err.Error(), "projectops: ") {
				t.Errorf("error %q lacks the package prefix", err)
			}
		})
	}
}

// TestOptionSettings checks what each good option records.
func TestOptionSettings(t *testing.T) {
	t.Parallel()
	logger := slog.New(slog.NewTextHandler(&bytes.Buffer{}, nil))
	hc := &http.Client{}
	rt := httpmock.NewMockTransport()
	var s settings
	for _, opt := range []Option{
		WithAPIKey(optKey), WithBaseURL("http://127.0.0.1:8080/api/v1"), WithMaxRetries(0),
		WithRetryBackoff(time.Millisecond, time.Second), WithMaxRetryAfter(0), WithRateLimit(60, 10),
		WithLogger(logger), WithUserAgent("app/1"), WithoutEnvironment(), WithHTTPClient(hc), WithTransport(rt),
	} {
		if err := opt(&s); err != nil {
			t.Fatal(err)
		}
	}
	if s.httpClient != hc || s.rt != rt || s.logger != logger {
		t.Error("client, transport or logger not recorded")
	}
	s.httpClient, s.rt, s.logger = nil, nil, nil
	want := settings{
		apiKey: optKey, keySet: true, baseURL: "http://127.0.0.1:8080/api/v1", baseSet: true, noEnv: true,
		maxRetries: 0, baseDelay: time.Millisecond, maxDelay: time.Second, maxRetryAfter: 0,
		ratePerMinute: 60, rateBurst: 10, userAgent: "app/1",
	}
	if diff := cmp.Diff(want, s, cmp.AllowUnexported(settings{})); diff != "" {
		t.Errorf("settings (-want +got):\n%s", diff)
	}
}

func TestGoodBaseURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"https://app.mcpjam.com/api/v1", "http://127.0.0.1:8080/api/v1", "http://localhost/api/v1/",
		"https://api.example.test", "https://[::1]:9000/prefix/api/v1",
	} {
		c, err := NewClient(WithoutEnvironment(), WithBaseURL(u))
		if err != nil {
			t.Errorf("WithBaseURL(%q): %v", u, err)
			continue
		}
		if got, want := c.BaseURL(), strings.TrimRight(u, "/"); got != want {
			t.Errorf("BaseURL() = %q, want %q", got, want)
		}
	}
}

// The environment tests use t.Setenv, so they cannot run in parallel.

func TestEnvironmentDefaults(t *testing.T) {
	t.Setenv(EnvAPIKey, "sk_env_key")
	t.Setenv(EnvBaseURL, "https://env.example.test/api/v1")
	mock, seen := recordingMock(t)

	c, err := NewClient(WithTransport(mock))
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != "https://env.example.test/api/v1" {
		t.Errorf("BaseURL() = %q, want the environment's", c.BaseURL())
	}
	if _, err := c.Catalog.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://env.example.test/api/v1/me Bearer sk_env_key"}, seen()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestExplicitOptionsBeatEnvironment(t *testing.T) {
	t.Setenv(EnvAPIKey, "pk_malformed_env_key") // never read when a key is given
	t.Setenv(EnvBaseURL, "not a url")
	mock, seen := recordingMock(t)
	c, err := NewClient(WithTransport(mock), WithAPIKey("sk_explicit"), WithBaseURL("https://explicit.example.test/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Catalog.Me(t.Context()); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"https://explicit.example.test/api/v1/me Bearer sk_explicit"}, seen()); diff != "" {
		t.Errorf("requests (-want +got):\n%s", diff)
	}
}

func TestWithoutEnvironment(t *testing.T) {
	t.Setenv(EnvAPIKey, "sk_env_key")
	t.Setenv(EnvBaseURL, "https://env.example.test/api/v1")
	mock, seen := recordingMock(t)
	c, err := NewClient(WithTransport(mock), WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != DefaultBaseURL {
		t.Errorf("BaseURL() = %q, want the default", c.BaseURL())
	}
	_, err = c.Catalog.Me(t.Context())
	if e, ok := apierr.As(err); !ok || e.Code != CodeUnauthorized || e.StatusCode != 0 {
		t.Errorf("err = %v, want a client-side UNAUTHORIZED (no key)", err)
	}
	if got := seen(); len(got) != 0 {
		t.Errorf("requests sent: %v", got)
	}

	// Bad values in the environment do not matter when it is ignored.
	t.Setenv(EnvAPIKey, "bad")
	t.Setenv(EnvBaseURL, "bad")
	if _, err := NewClient(WithoutEnvironment()); err != nil {
		t.Errorf("NewClient(WithoutEnvironment()) with a bad environment: %v", err)
	}
}

func TestEmptyEnvironmentIsUnset(t *testing.T) {
	t.Setenv(EnvAPIKey, "")
	t.Setenv(EnvBaseURL, "")
	c, err := NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != DefaultBaseURL {
		t.Errorf("BaseURL() = %q, want the default", c.BaseURL())
	}
	if strings.Contains(c.String(), "key=set") {
		t.Errorf("client has a key from an empty variable: %v", c)
	}
}

func TestBadEnvironment(t *testing.T) {
	tests := []struct {
		name, key, base string
		wantVar         string
	}{
		{"key without prefix", "pk_live_SECRET123", "", EnvAPIKey},
		{"key with whitespace", "sk_live_SECRET123 ", "", EnvAPIKey},
		{"base URL without scheme", "", "api.example.test/SECRET123", EnvBaseURL},
		{"key in the base URL variable", "", optKey, EnvBaseURL},
		{"base URL with credentials", "", "https://u:SECRET123@api.example.test/api/v1", EnvBaseURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvAPIKey, tt.key)
			t.Setenv(EnvBaseURL, tt.base)
			c, err := NewClient()
			if err == nil || c != nil {
				t.Fatalf("NewClient = %v, %v; want an error", c, err)
			}
			if !strings.Contains(err.Error(), tt.wantVar) {
				t.Errorf("error %q does not name %s", err, tt.wantVar)
			}
			if strings.Contains(err.Error(), "SECRET") {
				t.Errorf("error echoes the value: %q", err)
			}
		})
	}
}

// recordingMock answers every request with {} and records "URL Authorization".
func recordingMock(t *testing.T) (*httpmock.MockTransport, func() []string) {
	t.Helper()
	mock := httpmock.NewMockTransport()
	var mu sync.Mutex
	var got []string
	mock.RegisterNoResponder(func(req *http.Request) (*http.Response, error) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, req.URL.String()+" "+req.Header.Get("Authorization"))
		return httpmock.NewStringResponse(http.StatusOK, `{}`), nil
	})
	return mock, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), got...)
	}
}

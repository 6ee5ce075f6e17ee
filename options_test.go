package projectops_test

import (
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"

	"github.com/google/go-cmp/cmp"
	"github.com/jarcoal/httpmock"

	"github.com/projectops/projectops-go/internal/apierr"
)

const optKey = "sk_test_SECRET123"

func TestBadOptions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		opts []option.RequestOption
		want string // a fragment of the error text
	}{
		{"empty key", []option.RequestOption{option.WithAPIKey("")}, "empty API key"},
		{"key without sk_ prefix", []option.RequestOption{option.WithAPIKey("pk_SECRET123")}, `must start with "sk_"`},
		{"key with uppercase prefix", []option.RequestOption{option.WithAPIKey("SK_SECRET123")}, `must start with "sk_"`},
		{"key with a space", []option.RequestOption{option.WithAPIKey("sk_test SECRET123")}, "whitespace"},
		{"key with a newline", []option.RequestOption{option.WithAPIKey(optKey + "\n")}, "whitespace"},
		{"key with a tab", []option.RequestOption{option.WithAPIKey("sk_\tSECRET123")}, "whitespace"},
		{"key with a NUL", []option.RequestOption{option.WithAPIKey("sk_SECRET\x00123")}, "control"},
		{"key with DEL", []option.RequestOption{option.WithAPIKey("sk_SECRET\x7f123")}, "control"},
		{"unparsable URL", []option.RequestOption{option.WithBaseURL("http://host:SECRET123/api/v1")}, "unparsable base URL"},
		{"unparsable URL (bad IPv6)", []option.RequestOption{option.WithBaseURL("http://[::1/api/v1")}, "unparsable base URL"},
		{"URL without scheme", []option.RequestOption{option.WithBaseURL("api.example.test/api/v1")}, "scheme and a host"},
		{"host:port without scheme", []option.RequestOption{option.WithBaseURL("127.0.0.1:8080/api/v1")}, "scheme and a host, as in http://"},
		{"key given as the URL", []option.RequestOption{option.WithBaseURL(optKey)}, "scheme and a host"},
		{"URL with another scheme", []option.RequestOption{option.WithBaseURL("ftp://api.example.test/api/v1")}, "scheme and a host"},
		{"URL without host", []option.RequestOption{option.WithBaseURL("https:///api/v1")}, "scheme and a host"},
		{"empty URL", []option.RequestOption{option.WithBaseURL("")}, "scheme and a host"},
		{"URL with a trailing space", []option.RequestOption{option.WithBaseURL("http://api.example.test/api/v1 ")}, "whitespace"},
		{"URL with a space inside", []option.RequestOption{option.WithBaseURL("http://api.example.test/SECRET123 /api/v1")}, "whitespace"},
		{"URL with a trailing newline", []option.RequestOption{option.WithBaseURL("http://api.example.test/api/v1\n")}, "whitespace"},
		{"URL with a leading tab", []option.RequestOption{option.WithBaseURL("\thttp://api.example.test/api/v1")}, "whitespace"},
		{"URL with query", []option.RequestOption{option.WithBaseURL("https://api.example.test/api/v1?key=sk_test_SECRET123")}, "query"},
		{"URL with empty query", []option.RequestOption{option.WithBaseURL("https://api.example.test/api/v1?")}, "query"},
		{"URL with fragment", []option.RequestOption{option.WithBaseURL("https://api.example.test/api/v1#SECRET123")}, "fragment"},
		{"URL with empty fragment", []option.RequestOption{option.WithBaseURL("https://api.example.test/api/v1#")}, "fragment"},
		{"URL with password", []option.RequestOption{option.WithBaseURL("https://user:SECRET123@api.example.test/api/v1")}, "credentials"},
		{"URL with key as user", []option.RequestOption{option.WithBaseURL("https://" + optKey + "@api.example.test/api/v1")}, "credentials"},
		{"max retries is negative", []option.RequestOption{option.WithMaxRetries(-1)}, "max retries is negative"},
		{"zero base delay", []option.RequestOption{option.WithRetryBackoff(0, time.Second)}, "0 < base <= max"},
		{"zero max delay", []option.RequestOption{option.WithRetryBackoff(time.Second, 0)}, "0 < base <= max"},
		{"negative base delay", []option.RequestOption{option.WithRetryBackoff(-time.Second, time.Second)}, "0 < base <= max"},
		{"max below base", []option.RequestOption{option.WithRetryBackoff(2*time.Second, time.Second)}, "0 < base <= max"},
		{"negative MaxRetryAfter", []option.RequestOption{option.WithMaxRetryAfter(-time.Second)}, "negative duration"},
		{"zero rate", []option.RequestOption{option.WithRateLimit(0, 10)}, "positive rate and burst"},
		{"zero burst", []option.RequestOption{option.WithRateLimit(60, 0)}, "positive rate and burst"},
		{"negative rate", []option.RequestOption{option.WithRateLimit(-60, 10)}, "positive rate and burst"},
		{"nil http client", []option.RequestOption{option.WithHTTPClient(nil)}, "nil client"},
		{"nil transport", []option.RequestOption{option.WithTransport(nil)}, "nil RoundTripper"},
		{"nil logger", []option.RequestOption{option.WithLogger(nil)}, "nil logger"},
		{"user agent with newline", []option.RequestOption{option.WithUserAgent("app\r\nX-Injected: 1")}, "control character"},
		{"client and transport together", []option.RequestOption{option.WithHTTPClient(&http.Client{}), option.WithTransport(httpmock.NewMockTransport())}, "exclusive"},
		{"owned header", []option.RequestOption{option.WithHeader("Authorization", "Bearer sk_SECRET123")}, "cannot be set by an option"},
		{"connection-specific header", []option.RequestOption{option.WithHeader("Connection", "upgrade")}, "connection-specific"},
		{"header with a newline", []option.RequestOption{option.WithHeader("X-Trace", "a\r\nX-Injected: 1")}, "not a valid HTTP header"},
		{"zero request timeout", []option.RequestOption{option.WithRequestTimeout(0)}, "timeout is not positive"},
		{"bad option after good ones", []option.RequestOption{option.WithAPIKey(optKey), option.WithMaxRetries(2), option.WithMaxRetries(-2)}, "max retries is negative"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := projectops.NewClient(append([]option.RequestOption{option.WithoutEnvironment()}, tt.opts...)...)
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
			// The error names the option in its details.
			var e *projectops.Error
			if !errors.As(err, &e) || e.Code != projectops.CodeValidation {
				t.Fatalf("error %v is not a VALIDATION_ERROR", err)
			}
			if f, _ := e.Details["field"].(string); !strings.HasPrefix(f, "With") {
				t.Errorf("details.field = %q in %q: want the option's name", f, err)
			}
		})
	}
}

func TestGoodBaseURLs(t *testing.T) {
	t.Parallel()
	for _, u := range []string{
		"https://app.mcpjam.com/api/v1", "http://127.0.0.1:8080/api/v1", "http://localhost/api/v1/",
		"https://api.example.test", "https://[::1]:9000/prefix/api/v1",
	} {
		c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithBaseURL(u))
		if err != nil {
			t.Errorf("option.WithBaseURL(%q): %v", u, err)
			continue
		}
		if got, want := c.BaseURL(), strings.TrimRight(u, "/"); got != want {
			t.Errorf("BaseURL() = %q, want %q", got, want)
		}
	}
}

// The environment tests use t.Setenv, so they cannot run in parallel.

func TestEnvironmentDefaults(t *testing.T) {
	t.Setenv(option.EnvAPIKey, "sk_env_key")
	t.Setenv(option.EnvBaseURL, "https://env.example.test/api/v1")
	mock, seen := recordingMock(t)

	c, err := projectops.NewClient(option.WithTransport(mock))
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
	t.Setenv(option.EnvAPIKey, "pk_malformed_env_key") // never read when a key is given
	t.Setenv(option.EnvBaseURL, "not a url")
	mock, seen := recordingMock(t)
	c, err := projectops.NewClient(option.WithTransport(mock), option.WithAPIKey("sk_explicit"), option.WithBaseURL("https://explicit.example.test/api/v1"))
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
	t.Setenv(option.EnvAPIKey, "sk_env_key")
	t.Setenv(option.EnvBaseURL, "https://env.example.test/api/v1")
	mock, seen := recordingMock(t)
	c, err := projectops.NewClient(option.WithTransport(mock), option.WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != option.DefaultBaseURL {
		t.Errorf("BaseURL() = %q, want the default", c.BaseURL())
	}
	_, err = c.Catalog.Me(t.Context())
	if e, ok := apierr.As(err); !ok || e.Code != projectops.CodeUnauthorized || e.StatusCode != 0 {
		t.Errorf("err = %v, want a client-side UNAUTHORIZED (no key)", err)
	}
	if got := seen(); len(got) != 0 {
		t.Errorf("requests sent: %v", got)
	}

	// Bad values in the environment do not matter when it is ignored.
	t.Setenv(option.EnvAPIKey, "bad")
	t.Setenv(option.EnvBaseURL, "bad")
	if _, err := projectops.NewClient(option.WithoutEnvironment()); err != nil {
		t.Errorf("projectops.NewClient(option.WithoutEnvironment()) with a bad environment: %v", err)
	}
}

func TestEmptyEnvironmentIsUnset(t *testing.T) {
	t.Setenv(option.EnvAPIKey, "")
	t.Setenv(option.EnvBaseURL, "")
	c, err := projectops.NewClient()
	if err != nil {
		t.Fatal(err)
	}
	if c.BaseURL() != option.DefaultBaseURL {
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
		{"key without prefix", "pk_live_SECRET123", "", option.EnvAPIKey},
		{"key with whitespace", "sk_live_SECRET123 ", "", option.EnvAPIKey},
		{"base URL without scheme", "", "api.example.test/SECRET123", option.EnvBaseURL},
		{"key in the base URL variable", "", optKey, option.EnvBaseURL},
		{"base URL with credentials", "", "https://u:SECRET123@api.example.test/api/v1", option.EnvBaseURL},
		{"base URL with a trailing space", "", "http://api.example.test/SECRET123 ", option.EnvBaseURL},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(option.EnvAPIKey, tt.key)
			t.Setenv(option.EnvBaseURL, tt.base)
			c, err := projectops.NewClient()
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

// A bad option given to one call names the option, as the client's do,
// and nothing is sent.
func TestBadCallOptionNamesIt(t *testing.T) {
	t.Parallel()
	mock, seen := recordingMock(t)
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey(optKey), option.WithTransport(mock))
	if err != nil {
		t.Fatal(err)
	}
	for name, opt := range map[string]option.RequestOption{
		"WithMaxRetries": option.WithMaxRetries(-1), "WithRequestTimeout": option.WithRequestTimeout(-time.Second),
		"WithHeader": option.WithHeader("Authorization", "x"), "WithIdempotencyKey": option.WithIdempotencyKey(" "),
		"WithResponseInto": option.WithResponseInto(nil),
	} {
		_, err := c.Hosts.List(t.Context(), "prj_1", nil, opt)
		var e *projectops.Error
		if !errors.As(err, &e) || e.Code != projectops.CodeValidation || e.Details["field"] != name || !strings.Contains(e.Message, name+":") {
			t.Errorf("%s: %v; want a VALIDATION_ERROR naming the option", name, err)
		}
	}
	if n := len(seen()); n != 0 {
		t.Errorf("%d requests sent", n)
	}
}

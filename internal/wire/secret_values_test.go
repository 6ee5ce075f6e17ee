package wire

import (
	"slices"
	"testing"
)

func TestCredentialHeader(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"Authorization": true, "proxy-authorization": true, "Cookie": true, "X-Api-Key": true, "x_auth_token": true,
		"X-Tenant-Secret": true, "X-Session-Id": true, "X-Password": true, "X-Goog-Api-Key": true,
		"X-Amz-Security-Token": true, "Private-Token": true, "X-Hub-Signature-256": true, "X-JWT-Assertion": true,
		"X-Api-Pass": true, "X-Passphrase": true, "Cookie2": true, "X-Cookie": true, "xapikey": true,
		"Accept": false, "Content-Type": false, "X-Region": false, "Cache-Control": false, "X-Env": false,
		"X-Author": false, "X-Authenticated-User": false, "X-Keywords": false, "X-Monkey": false,
		"X-Tokenizer": false, "X-Max-Tokens": false, "Keep-Alive": false,
		"Authentication": true, "X-ApiToken": true, "X-ClientSecret": true, "X-AuthKey": true, "X-CSRFToken": true,
		"X-SessionToken": true, "Idempotency-Key": false, "Sec-WebSocket-Key": false,
		"X-Mcpjam-Idempotency-Key": false, "x-idempotency-key": false, "X-Idempotency-Key-Secret": true,
	} {
		if got := CredentialHeader(name); got != want {
			t.Errorf("CredentialHeader(%q) = %v, want %v", name, got, want)
		}
	}
}

// Credential header values are found at any depth and in any shape a Go
// caller builds, whole and without their scheme; ordinary ones are not.
func TestHeaderSecrets(t *testing.T) {
	t.Parallel()
	cfg := map[string]any{
		"connectionDefaults":        map[string]map[string]string{"headers": {"Authorization": "Bearer tok-123456", "Accept": "application/json"}},
		"serverConnectionOverrides": []any{map[string]any{"headersOverride": map[string]string{"X-Api-Key": "key-abcdefgh"}}},
	}
	got := HeaderSecrets(cfg)
	slices.Sort(got)
	if want := []string{"Bearer tok-123456", "key-abcdefgh", "tok-123456"}; !slices.Equal(got, want) {
		t.Errorf("HeaderSecrets = %q, want %q", got, want)
	}
}

func TestURLSecrets(t *testing.T) {
	t.Parallel()
	for raw, want := range map[string][]string{
		"https://relay.example/t/s/mcp?k=abc123":         {"abc123"},
		"https://relay.example/t/s/mcp?a=1&K=abc%2B123":  {"abc%2B123", "abc+123"},
		"https://relay.example/t/s/mcp?%6B=x1;k=y2":      {"x1", "y2"},
		"https://bob:pw-123@mcp.example/mcp":             {"pw-123"},
		"https://bob:p%40ss-123@mcp.example/mcp":         {"p@ss-123", "p%40ss-123"},
		"https://relay.example/t/%zz/mcp?k=abc123#frag":  {"abc123"},
		"https://mcp.example/mcp?key=notasecret&kk=nope": nil,
	} {
		if got := URLSecrets(raw); !slices.Equal(got, want) {
			t.Errorf("URLSecrets(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestKeyLike(t *testing.T) {
	t.Parallel()
	for v, want := range map[string]bool{
		"hcaik_LEAKCANARY1234567890abcdef": true, "LEAKCANARYTRACKER0987654321": true,
		"application/json": false, "staging-eu": false, "text/event-stream": false,
		"abc123": false, "Bearer abc1234567890xyz": false, "1234567890123456": false,
		"application/vnd.github.v3+json": false, "application/vnd.api+json;v=2": false,
		"text/plain;charset=utf-8": false, "AppleWebKit/537.36": false, "2024-10-01T00:00:00Z": false,
		"123e4567-e89b-12d3-a456-426614174000": true, "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY1": true,
		"abc/1234567890123x": true,
	} {
		if got := KeyLike(v); got != want {
			t.Errorf("KeyLike(%q) = %v, want %v", v, got, want)
		}
	}
}

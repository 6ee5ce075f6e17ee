package mcpops

import "testing"

// The service's doctor takes a saved Authorization header as credentials
// only when it is "Bearer", any case, then whitespace and a token.
func TestBearerToken(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"Bearer abc", "abc"},
		{"bEaReR \t abc ", "abc"},
		{"Bearer", ""},
		{"Bearer   ", ""},
		{"Bearerabc", ""},
		{" Bearer abc", ""},
		{"Basic dXNlcjpwYXNz", ""},
		{"", ""},
	} {
		if got := bearerToken(c.in); got != c.want {
			t.Errorf("bearerToken(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// Credentials are the caller's grant or a saved bearer header named
// exactly "Authorization", else "authorization", as the service looks
// it up.
func TestHasCredentials(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		headers map[string]string
		grant   bool
		want    bool
	}{
		{nil, false, false},
		{nil, true, true},
		{map[string]string{"Authorization": "Bearer abc"}, false, true},
		{map[string]string{"authorization": "Bearer abc"}, false, true},
		{map[string]string{"AUTHORIZATION": "Bearer abc"}, false, false},                               // not a spelling the service looks up
		{map[string]string{"Authorization": "Basic abc", "authorization": "Bearer abc"}, false, false}, // "Authorization" first
		{map[string]string{"Authorization": "Basic abc"}, false, false},
		{map[string]string{"X-Api-Key": "Bearer abc"}, false, false},
	} {
		sc := &Call{}
		sc.Target.Headers = c.headers
		if c.grant {
			sc.grant = &grant{}
		}
		if got := sc.hasCredentials(); got != c.want {
			t.Errorf("hasCredentials(headers %v, grant %v) = %v, want %v", c.headers, c.grant, got, c.want)
		}
	}
}

package ingest

import (
	"strings"
	"testing"
)

// An OAuth credential named by its field is redacted from the service's
// error text in every form a backend writes it, and a second pass changes
// nothing.
func TestRedactCredentialFields(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"accessToken":"S1secretvalue"}`,
		`{"refresh_token": "S1secretvalue"}`,
		`Invalid serverReplayConfigs[0]: {"serverId":"s1","clientSecret":"S1secretvalue"}`,
		`Object: {accessToken: "S1secretvalue", url: "x"}`,
		`{\"accessToken\":\"S1secretvalue\"}`,
		`{'client_secret': 'S1secretvalue'}`,
		`grant_type=refresh_token&refresh_token=S1secretvalue&client_id=x`,
		"request was:\nrefresh_token=S1secretvalue\nclient_secret=S1secretvalue",
		"id_token=S1secretvalue", `codeVerifier: "S1secretvalue"`, `ACCESS_TOKEN="S1secretvalue"`,
		`googleAccessToken: "S1secretvalue"`, `github_client_secret=S1secretvalue`, `ACCESS-TOKEN: S1secretvalue`,
	} {
		got := credFields(in)
		if strings.Contains(got, "S1secret") || !strings.Contains(got, Redacted) {
			t.Errorf("%q → %q", in, got)
		}
		if again := credFields(got); again != got {
			t.Errorf("%q: a second pass changed %q to %q", in, got, again)
		}
	}
	for _, in := range []string{`accessToken=""`, "tokens: 3", "promptTokens 12, completionTokens 4"} {
		if got := credFields(in); got != in {
			t.Errorf("%q → %q, want it unchanged", in, got)
		}
	}
}

// Results keep what only the error-text rule would change: it is not one
// of the reporter's rules for results.
func TestResultsKeepCredentialLookalikes(t *testing.T) {
	t.Parallel()
	in := []byte(`{"error":"access_token=\nnext line; usage: promptTokens 12","accessToken":null}`)
	if got := (redactor{}).apply(in); string(got) != string(in) {
		t.Errorf("apply changed %s to %s", in, got)
	}
}

// The rule names a field only where its name starts a word or follows a
// '_', '-' or a camel-case joint, reads a hash's "=>", and redacts a quoted
// value to its closing quote.
func TestRedactCredentialFieldBoundaries(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`valid_token: "keep"`, `error: invalid_token: The access token expired`} {
		if got := credFields(in); got != in {
			t.Errorf("%q → %q, want it unchanged", in, got)
		}
	}
	for in, want := range map[string]string{
		`{"client_secret" => "S1secretvalue"}`:   `{"client_secret" => "[REDACTED]"}`,
		`{"accessToken":"abc,S1 secret value"}`:  `{"accessToken":"[REDACTED]"}`,
		`oauthRefreshToken=S1secret&next=1`:      `oauthRefreshToken=[REDACTED]&next=1`,
		`x_access_token: 'S1secret', other: 'y'`: `x_access_token: '[REDACTED]', other: 'y'`,
	} {
		if got := credFields(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

// A name the boundary rule rejects does not hide a field after it; an
// upper-case INVALID_TOKEN is no more a field than invalid_token; a quoted
// value runs to the quote that opened it (an escaped one when it opened
// escaped); an all-lower-case joined name is still a field.
func TestRedactCredentialFieldEdges(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`401 invalid_token: access_token=ya29.S1secret`: `401 invalid_token: access_token=[REDACTED]`,
		`error: INVALID_TOKEN: expired`:                 `error: INVALID_TOKEN: expired`,
		`MY_INVALID_TOKEN=abc`:                          `MY_INVALID_TOKEN=abc`,
		`{"clientSecret":"ab'cd ef gh"}`:                `{"clientSecret":"[REDACTED]"}`,
		`{'clientSecret': 'ab"cd ef gh'}`:               `{'clientSecret': '[REDACTED]'}`,
		`{"clientSecret":"ab\"cd ef gh"}`:               `{"clientSecret":"[REDACTED]"}`,
		`{\"clientSecret\":\"abc def\"}`:                `{\"clientSecret\":\"[REDACTED]\"}`,
		`googleaccesstoken=S1secret`:                    `googleaccesstoken=[REDACTED]`,
		`clientSecret: "unclosed S1secret`:              `clientSecret: "[REDACTED]`,
	} {
		if got := credFields(in); got != want {
			t.Errorf("%q → %q, want %q", in, got, want)
		}
	}
}

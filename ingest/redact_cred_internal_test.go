package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// An OAuth credential named by its field is redacted in every form a
// backend's message or a result's text writes it, and JSON stays JSON.
func TestRedactCredentialFields(t *testing.T) {
	t.Parallel()
	rd := redactor{}
	for _, in := range []string{
		`{"accessToken":"S1secretvalue"}`,
		`{"refresh_token": "S1secretvalue"}`,
		`Invalid serverReplayConfigs[0]: {"serverId":"s1","clientSecret":"S1secretvalue"}`,
		`Object: {accessToken: "S1secretvalue", url: "x"}`,
		`{'client_secret': 'S1secretvalue'}`,
		`grant_type=refresh_token&refresh_token=S1secretvalue&client_id=x`,
		`id_token=S1secretvalue`, `codeVerifier: "S1secretvalue"`, `ACCESS_TOKEN="S1secretvalue"`,
	} {
		if got := string(rd.text(in)); strings.Contains(got, "S1secret") || !strings.Contains(got, Redacted) {
			t.Errorf("%s → %s", in, got)
		}
		// As a result's JSON: the value goes, the JSON stays valid, and a
		// second pass changes nothing.
		b, _ := json.Marshal(map[string]string{"error": in})
		once := rd.apply(b)
		if strings.Contains(string(once), "S1secret") || !json.Valid(once) || string(rd.apply(once)) != string(once) {
			t.Errorf("%s as JSON → %s", in, once)
		}
	}
	for _, in := range []string{`{"accessToken":null,"refreshToken":12}`, `{"accessToken":""}`, `valid_token: "keep"`, `tokens: 3`} {
		if got := rd.apply([]byte(in)); string(got) != in {
			t.Errorf("%s → %s, want it unchanged", in, got)
		}
	}
	top := []byte(`{"accessToken":"S1secretvalue","n":1}`)
	if got := rd.apply(top); !json.Valid(got) || strings.Contains(string(got), "S1secret") {
		t.Errorf("JSON level: %s", got)
	}
}

package environments_test

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/option"
)

type buildRT func(*http.Request) (*http.Response, error)

func (f buildRT) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestBuildReadsHostedE2BBuildID: the spec names the provider's build id
// providerBuildId; the hosted service's reference sends it as e2bBuildId.
// A build listed or embedded as an environment's currentBuild keeps it in
// ProviderBuildID when providerBuildId is absent (or null); providerBuildId
// wins when both are sent, and encoding sends providerBuildId only.
func TestBuildReadsHostedE2BBuildID(t *testing.T) {
	t.Parallel()
	body := ""
	rt := buildRT(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Request: r, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(body))}, nil
	})
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test"), option.WithTransport(rt), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	const b = `"status":"ready","provider":"e2b","baseImageDigests":["sha256:a"],"createdAt":1700000000000`
	body = `{"items":[{"id":"b1",` + b + `,"e2bBuildId":"e2b_tpl_123"},
		{"id":"b2",` + b + `,"providerBuildId":"neutral","e2bBuildId":"other"},
		{"id":"b3",` + b + `,"providerBuildId":null,"e2bBuildId":"e2b_tpl_3"},
		{"id":"b4",` + b + `}]}`
	page, err := c.Environments.ListBuilds(t.Context(), "prj_1", "env_1", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"e2b_tpl_123", "neutral", "e2b_tpl_3", ""}
	for i, bd := range page.Items {
		if bd.ProviderBuildID != want[i] {
			t.Errorf("%s: ProviderBuildID %q, want %q", bd.ID, bd.ProviderBuildID, want[i])
		}
	}
	if out, _ := json.Marshal(page.Items[0]); !strings.Contains(string(out), `"providerBuildId":"e2b_tpl_123"`) || strings.Contains(string(out), "e2bBuildId") {
		t.Errorf("encoded %s, want providerBuildId only", out)
	}

	body = `{"id":"env_1","projectId":"prj_1","name":"n","currentBuild":{"id":"b1",` + b + `,"e2bBuildId":"e2b_tpl_9"}}`
	env, err := c.Environments.Get(t.Context(), "prj_1", "env_1")
	if err != nil {
		t.Fatal(err)
	}
	if env.CurrentBuild == nil || env.CurrentBuild.ProviderBuildID != "e2b_tpl_9" {
		t.Errorf("currentBuild: %+v", env.CurrentBuild)
	}
}

// Decoding into a Build already filled keeps the members the JSON leaves
// out, as encoding/json does for a struct without a method of its own.
func TestBuildDecodeMergesLikeEncodingJSON(t *testing.T) {
	t.Parallel()
	b := environments.Build{ID: "bld_1", ProviderBuildID: "p-1", Status: "ready"}
	if err := json.Unmarshal([]byte(`{"status":"failed"}`), &b); err != nil {
		t.Fatal(err)
	}
	if b.ID != "bld_1" || b.ProviderBuildID != "p-1" || b.Status != "failed" {
		t.Errorf("merged decode = %+v", b)
	}
}

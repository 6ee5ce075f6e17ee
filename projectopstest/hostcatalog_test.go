package projectopstest_test

import (
	"net/http"
	"testing"

	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/shared"
)

// The host-compatibility catalog is public (api-spec.md §4.2, §5): any
// Authorization header is ignored there, so a garbage value, an unknown
// sk_ key, a revoked key and a key over its rate limit all get the catalog
// (200), and the request does not spend the key's rate budget.
func TestHostCatalogIgnoresAnyKey(t *testing.T) {
	t.Parallel()
	clock := newFakeClock() // never advanced: no budget refills
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now), projectopstest.WithRateLimit(60, 2))
	ws := srv.Default()
	revoked, revokedID, err := srv.AddAPIKey(ws.UserID, "revoked")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.RevokeAPIKey(revokedID); err != nil {
		t.Fatal(err)
	}
	spent, _, err := srv.AddAPIKey(ws.UserID, "spent")
	if err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	// The spent key's two-request burst is used up: /me is 429 for it.
	for range 2 {
		if r := tg.call(t, "GET", "/me", spent, nil); r.status != http.StatusOK {
			t.Fatalf("/me: %d %s", r.status, r.body)
		}
	}
	tg.call(t, "GET", "/me", spent, nil).wantError(t, shared.CodeRateLimited)
	// The owner key spends one of its two.
	if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != http.StatusOK {
		t.Fatalf("first /me: %d %s", r.status, r.body)
	}
	for name, authz := range map[string]string{
		"garbage":          "garbage",
		"basic":            "Basic dXNlcjpwYXNz",
		"unknown sk_":      "Bearer sk_not_a_real_key",
		"revoked":          "Bearer " + revoked,
		"rate limited":     "Bearer " + spent,
		"empty bearer":     "Bearer ",
		"owner":            "Bearer " + ws.APIKey,
		"lowercase scheme": "bearer " + ws.APIKey,
	} {
		req, err := http.NewRequestWithContext(t.Context(), "GET", tg.base+"/host-catalog", nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", authz)
		resp, err := tg.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		r := readResult(t, resp)
		if r.status != http.StatusOK {
			t.Errorf("%s: %d %s, want 200", name, r.status, r.body)
			continue
		}
		var c catalog.HostCatalog
		r.decode(t, &c)
		if c.Source != catalog.SourceBundled || len(c.Catalog.HostsByID) == 0 {
			t.Errorf("%s: source %q with %d hosts, want the bundled catalog", name, c.Source, len(c.Catalog.HostsByID))
		}
	}
	// The catalog requests with the owner key took nothing from its
	// budget: the one request it has left is still there, and no more.
	if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != http.StatusOK {
		t.Fatalf("/me after the catalog requests: %d %s: they spent the key's rate budget", r.status, r.body)
	}
	tg.call(t, "GET", "/me", ws.APIKey, nil).wantError(t, shared.CodeRateLimited)
}

package projectopstest_test

import (
	"net/http"
	"testing"
	"time"

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
	clock := newFakeClock()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(clock.Now), projectopstest.WithRateLimit(60, 1))
	ws := srv.Default()
	revoked, revokedID, err := srv.AddAPIKey(ws.UserID, "revoked")
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.RevokeAPIKey(revokedID); err != nil {
		t.Fatal(err)
	}
	tg := inproc(srv)
	// Spend the owner key's one-request burst: /me is now 429 for it.
	if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != http.StatusOK {
		t.Fatalf("first /me: %d %s", r.status, r.body)
	}
	tg.call(t, "GET", "/me", ws.APIKey, nil).wantError(t, shared.CodeRateLimited)
	for name, authz := range map[string]string{
		"garbage":          "garbage",
		"basic":            "Basic dXNlcjpwYXNz",
		"unknown sk_":      "Bearer sk_not_a_real_key",
		"revoked":          "Bearer " + revoked,
		"rate limited":     "Bearer " + ws.APIKey,
		"empty bearer":     "Bearer ",
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
	// The catalog requests took nothing from the key's budget: one second
	// refills exactly one token, and the next request is limited again.
	clock.Advance(time.Second)
	if r := tg.call(t, "GET", "/me", ws.APIKey, nil); r.status != http.StatusOK {
		t.Fatalf("/me after refill: %d %s", r.status, r.body)
	}
	tg.call(t, "GET", "/me", ws.APIKey, nil).wantError(t, shared.CodeRateLimited)
}

package projectopstest_test

import (
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// With the clock held still, requests racing on two keys of one user each
// admit exactly their key's burst (api-spec.md §8: 60 a minute, burst 10,
// per API key); every other answer is 429 RATE_LIMITED with Retry-After
// (§7).
func TestConcurrentRateLimitExactPerKey(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithClock(newFakeClock().Now))
	ws := srv.Default()
	second, _, err := srv.AddAPIKey(ws.UserID, "second")
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{ws.APIKey, second}
	tg := inproc(srv)
	const perKey = 25
	rs := fanOut(perKey*len(keys), func(i int) reply {
		return tg.send("GET", "/projects/"+ws.ProjectID+"/hosts", keys[i%len(keys)], nil, nil)
	})
	admitted := make([]int, len(keys))
	for i, r := range rs {
		switch {
		case r.status == 200:
			admitted[i%len(keys)]++
		case r.status == 429 && r.field("code") == "RATE_LIMITED" && r.header.Get("Retry-After") != "":
		default:
			t.Errorf("request %d: %v", i, r)
		}
	}
	for k, n := range admitted {
		if n != projectopstest.DefaultRateBurst {
			t.Errorf("key %d admitted %d, want the burst %d", k, n, projectopstest.DefaultRateBurst)
		}
	}
}

package projectopstest_test

import (
	"strings"
	"testing"
)

// TestTunnelSecretOnAnyPathMasked: a live tunnel's secret is masked on
// paths that do not start with exactly "/tunnels/<slug>/": the slug ended
// by '\' (which the double resolves as '/') or its escape, an empty or dot
// segment, reached by "..", and paths outside /tunnels/, glued to other
// bytes or not; and so is the secret a re-created tunnel gets.
func TestTunnelSecretOnAnyPathMasked(t *testing.T) {
	t.Parallel()
	logs, opt := debugLogged(t)
	f := newRelayFixture(t, true, opt)
	_ = f.dial(t)
	k := f.publicU.Query().Get("k")
	p := f.publicU.EscapedPath()
	slug := strings.Split(strings.TrimPrefix(p, "/tunnels/"), "/")[0]
	slugPath := "/tunnels/" + slug
	checkSecretHidden(t, f.srv, logs, nil, k, []string{
		slugPath + `\` + k,
		slugPath + "%5C" + k,
		"/tunnels//" + slug + "/" + k,
		"/tunnels/./" + slug + "/" + k,
		"/api/v1/../.." + slugPath + "/" + k,
		"/api/v1/projects/" + k,
		"/api/v1/x/id-" + k + "_tail/y",
		"/" + k + k,
		p + "/" + k,
	})

	ws := f.srv.Default()
	again := createTunnelRaw(t, f.tg, ws.ProjectID, ws.APIKey, "local")
	raw, _ := again["url"].(string)
	_, k2, ok := strings.Cut(raw, "?k=")
	if !ok || k2 == k {
		t.Fatalf("re-created tunnel's URL %q has no new secret", strings.ReplaceAll(raw, k, "OLD"))
	}
	checkSecretHidden(t, f.srv, logs, nil, k2, []string{"/api/v1/x/" + k2, slugPath + `\` + k2})
}

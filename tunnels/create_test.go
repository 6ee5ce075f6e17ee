package tunnels_test

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"

	"github.com/google/go-cmp/cmp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/projectopstest"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
	"github.com/projectops/projectops-go/tunnels"
)

// listed returns the project's saved server id as the listing shows it.
func listed(t *testing.T, f *fixture, id string) servers.Server {
	t.Helper()
	page, err := f.C.Servers.List(t.Context(), f.WS.ProjectID, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range page.Items {
		if s.ID == id {
			return s
		}
	}
	t.Fatalf("server %s not listed", id)
	return servers.Server{}
}

func secretOf(t *testing.T, g *tunnels.Grant) string {
	t.Helper()
	u, err := url.Parse(g.URL)
	if err != nil {
		t.Fatal(err)
	}
	k := u.Query().Get("k")
	if len(k) < 32 {
		t.Fatalf("secret %d characters long", len(k))
	}
	return k
}

func TestCreateNew(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "everything")
	want := tunnels.Grant{ServerID: g.ServerID, Name: "everything", Slug: g.Slug, URL: g.URL,
		ConnectToken: g.ConnectToken, ConnectTokenExpiresAt: shared.Millis(t0.Add(projectopstest.TunnelTokenTTL).UnixMilli()),
		RelayWSURL: "ws://projectops.test/tunnels/agent", SecretVersion: 1, ProjectID: f.WS.ProjectID}
	if diff := cmp.Diff(want, *g); diff != "" {
		t.Errorf("grant (-want +got):\n%s", diff)
	}
	k := secretOf(t, g)
	// The service's shape, https://{slug}.tunnels.mcpjam.com/api/mcp/adapter-http/{serverId}?k=…,
	// with the slug in the path.
	if wantURL := "http://projectops.test/tunnels/" + g.Slug + "/api/mcp/adapter-http/" + g.ServerID + "?k=" + k; g.URL != wantURL {
		t.Errorf("URL = %s, want %s", tunnels.RedactURL(g.URL), tunnels.RedactURL(wantURL))
	}
	if !strings.HasPrefix(g.ConnectToken, "ct_") || g.Slug == "" || g.ServerID == "" {
		t.Errorf("grant %v", g)
	}
	// The server is registered as an http server at the tunnel: its url is
	// the grant's URL, ?k= secret included, as the service stores it.
	// Printing the record redacts the secret.
	s := listed(t, f, g.ServerID)
	if s.Name != "everything" || s.TransportType != servers.TransportHTTP || s.URL != g.URL {
		t.Errorf("listed %+v", s)
	}
	if printed := fmt.Sprintf("%v %+v %#v %s", s, s, s, s); strings.Contains(printed, k) {
		t.Errorf("printing the record shows the secret: %s", printed)
	}
}

func TestCreateRepointsExisting(t *testing.T) {
	t.Parallel()
	f := setup(t)
	p := f.WS.ProjectID
	httpID := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "remote", URL: "https://mcp.example.com/mcp"}))
	stdioID := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: p, Name: "local", Command: "npx",
		Args: []string{"server", "--token=arg-secret"}, Env: map[string]projectopstest.Secret{"TOKEN": "env-secret"}}))
	// A server of the same name in another project is not this one.
	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "Other"}))
	must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: other, Name: "remote", URL: "https://other.example.com/mcp"}))

	g := create(t, f, "remote")
	if g.ServerID != httpID || !g.Existed || g.PreviousURL != "https://mcp.example.com/mcp" || g.PreviousTransportType != "http" {
		t.Errorf("http record: %+v", struct{ ID, Prev, PrevT string }{g.ServerID, g.PreviousURL, g.PreviousTransportType})
	}
	g = create(t, f, "local")
	if g.ServerID != stdioID || !g.Existed || g.PreviousURL != "" || g.PreviousTransportType != "stdio" {
		t.Errorf("stdio record: %+v", struct{ ID, Prev, PrevT string }{g.ServerID, g.PreviousURL, g.PreviousTransportType})
	}
	if s := listed(t, f, stdioID); s.TransportType != servers.TransportHTTP || s.URL != g.URL {
		t.Errorf("converted stdio record listed as %+v", s)
	}
	page, err := f.C.Servers.List(t.Context(), p, nil)
	if err != nil || len(page.Items) != 2 {
		t.Fatalf("List: %d servers, %v", len(page.Items), err)
	}
}

func TestCreateRotates(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g1 := create(t, f, "local")
	h1 := serve(t, f, g1, echo)
	g2 := create(t, f, "local")
	// Same record, same slug; new secret, token and version.
	if g2.ServerID != g1.ServerID || g2.Slug != g1.Slug || g2.SecretVersion != 2 || !g2.Existed ||
		g2.URL == g1.URL || g2.ConnectToken == g1.ConnectToken {
		t.Fatalf("second grant %v after %v", g2, g1)
	}
	// Only the secret rotated: the record did not point elsewhere before.
	if g2.PreviousURL != "" {
		t.Errorf("PreviousURL = %q, want none on a re-create of the same tunnel", g2.PreviousURL)
	}
	// The live session of the old grant was disconnected as revoked.
	if err := h1.wait(t); err != tunnels.ErrRevoked {
		t.Fatalf("old Serve = %v, want ErrRevoked", err)
	}
	if status, _ := get(t, f, http.MethodGet, g1.URL, ""); status != http.StatusNotFound {
		t.Errorf("old URL: %d", status)
	}
	// The old token no longer connects.
	if err := f.C.Tunnels.Serve(t.Context(), g1, echo, fastReconnect); err == nil || !strings.Contains(err.Error(), "rejected") {
		t.Fatalf("Serve(old grant) = %v", err)
	}
	serve(t, f, g2, echo)
	if status, body := get(t, f, http.MethodGet, g2.URL, ""); status != http.StatusAccepted || body != "GET /mcp " {
		t.Errorf("new URL: %d %q", status, body)
	}
}

func TestCloseAndRevive(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	h := serve(t, f, g, echo)
	before := listed(t, f, g.ServerID)

	c, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID)
	if err != nil {
		t.Fatal(err)
	}
	if *c != (tunnels.Closed{ServerID: g.ServerID, Status: tunnels.StatusClosed}) {
		t.Errorf("Close = %+v", c)
	}
	if err := h.wait(t); err != tunnels.ErrRevoked {
		t.Fatalf("Serve after Close = %v, want ErrRevoked", err)
	}
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusNotFound {
		t.Errorf("public URL after Close: %d", status)
	}
	// The record and its dead url are untouched.
	if diff := cmp.Diff(before, listed(t, f, g.ServerID)); diff != "" {
		t.Errorf("record changed by Close (-before +after):\n%s", diff)
	}
	// Closing again is fine; serving the revoked grant is refused.
	if _, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID); err != nil {
		t.Errorf("second Close: %v", err)
	}
	// The service's close reads no body: one sent, JSON or not, is ignored.
	for _, body := range []string{`{"force":true}`, `not json`} {
		if status, e := f.Raw(t, http.MethodPost, "/projects/"+f.WS.ProjectID+"/tunnels/"+g.ServerID+"/close", f.WS.APIKey, body); status != http.StatusOK {
			t.Errorf("close with body %s: %d %+v", body, status, e)
		}
	}
	if err := f.C.Tunnels.Serve(t.Context(), g, echo); err == nil || !strings.Contains(err.Error(), "rejected") {
		t.Errorf("Serve(revoked) = %v", err)
	}
	// Create revives it: same record and slug, a new secret.
	g2 := create(t, f, "local")
	if g2.ServerID != g.ServerID || g2.Slug != g.Slug || g2.URL == g.URL || g2.SecretVersion != g.SecretVersion+1 || !g2.Existed {
		t.Fatalf("revived %v after %v", g2, g)
	}
	// Only the ?k= secret changed: the endpoint is the same, so there is no
	// previousUrl, and the record now holds the revived URL.
	// (The messages show endpoints only: the URLs carry the secrets.)
	if e2, e1 := endpoint(t, g2.URL), endpoint(t, g.URL); e2 != e1 || g2.PreviousURL != "" {
		t.Errorf("revived endpoint %q (was %q), previousUrl set %v; want the same endpoint and no previousUrl", e2, e1, g2.PreviousURL != "")
	}
	if s := listed(t, f, g.ServerID); s.URL != g2.URL {
		t.Errorf("record url after revive is not the revived grant's (record endpoint %q)", strings.SplitN(s.URL, "?", 2)[0])
	}
	serve(t, f, g2, echo)
	if status, _ := get(t, f, http.MethodGet, g2.URL, ""); status != http.StatusAccepted {
		t.Errorf("revived URL: %d", status)
	}
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusNotFound {
		t.Errorf("old URL after revive: %d", status)
	}
}

// endpoint is u without its query (a tunnel URL's ?k= secret).
func endpoint(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if p.Query().Get("k") == "" {
		t.Fatalf("tunnel URL %q has no ?k= secret", u)
	}
	p.RawQuery = ""
	return p.String()
}

func TestCreateValidation(t *testing.T) {
	t.Parallel()
	f := setup(t)
	// As the service's schema: trimmed, then 1 to 128 UTF-16 code units
	// (an emoji is two).
	for _, name := range []string{"", "   ", strings.Repeat("é", 129), strings.Repeat("\U0001F600", 65)} {
		_, err := f.C.Tunnels.Create(t.Context(), f.WS.ProjectID, tunnels.CreateParams{Name: name})
		wantField(t, err, "name", true)
	}
	if g := create(t, f, strings.Repeat("é", 128)); g.Name != strings.Repeat("é", 128) {
		t.Errorf("128-character name: %q", g.Name)
	}
	if g := create(t, f, "  "+strings.Repeat("\U0001F600", 64)+"\t"); g.Name != strings.Repeat("\U0001F600", 64) {
		t.Errorf("64 emoji, padded: name %q, want it trimmed", g.Name)
	}
	p := "/projects/" + f.WS.ProjectID
	for _, tt := range []struct{ path, body, field string }{
		{p + "/tunnels", `{}`, "name"},
		{p + "/tunnels", `{"name":7}`, "name"},
	} {
		status, e := f.Raw(t, http.MethodPost, tt.path, f.WS.APIKey, tt.body)
		if status != http.StatusBadRequest || e.Code != projectops.CodeValidation || e.Details["field"] != tt.field {
			t.Errorf("%s %s: %d %+v", tt.path, tt.body, status, e)
		}
	}
	if page, _ := f.C.Servers.List(t.Context(), f.WS.ProjectID, nil); len(page.Items) != 2 { // the two creates above
		t.Errorf("rejected creates registered servers: %d", len(page.Items))
	}
	// The create body is open in both reference versions: the service
	// ignores a field it does not know, and so does the double.
	if status, e := f.Raw(t, http.MethodPost, p+"/tunnels", f.WS.APIKey, `{"name":"x","url":"https://elsewhere.example"}`); status != http.StatusCreated {
		t.Errorf("unknown field on an open body: %d %+v", status, e)
	}
	page, _ := f.C.Servers.List(t.Context(), f.WS.ProjectID, nil)
	for _, sv := range page.Items {
		if strings.Contains(sv.URL, "elsewhere") {
			t.Errorf("the ignored url was stored: %s", sv.Name)
		}
	}
}

func TestAccess(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "local")
	guest := must(t)(f.Srv.AddUser(projectopstest.UserSpec{OrganizationID: f.WS.OrganizationID, Role: projectopstest.RoleMember}))
	if err := f.Srv.AddMember(f.WS.ProjectID, guest, projectopstest.RoleGuest); err != nil {
		t.Fatal(err)
	}
	key, _, err := f.Srv.AddAPIKey(guest, "guest")
	if err != nil {
		t.Fatal(err)
	}
	gc := f.Client(t, option.WithAPIKey(key))
	_, err = gc.Tunnels.Create(t.Context(), f.WS.ProjectID, tunnels.CreateParams{Name: "mine"})
	wantError(t, err, projectops.CodeForbidden, true)
	_, err = gc.Tunnels.Close(t.Context(), f.WS.ProjectID, g.ServerID)
	wantError(t, err, projectops.CodeForbidden, true)

	other := must(t)(f.Srv.AddProject(projectopstest.ProjectSpec{OrganizationID: f.WS.OrganizationID, Name: "Other"}))
	theirs := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: other, Name: "theirs", URL: "https://x.example/mcp"}))
	plain := must(t)(f.Srv.AddServer(projectopstest.ServerSpec{ProjectID: f.WS.ProjectID, Name: "plain", URL: "https://x.example/mcp"}))
	for _, id := range []string{theirs, "srv_nope"} {
		_, err = f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, id)
		wantError(t, err, projectops.CodeNotFound, true)
	}
	// The service refuses only a server outside the project: closing a
	// server of it that never had a tunnel revokes nothing, as a second
	// close does, and leaves the server as it was.
	if c, err := f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, plain); err != nil || c.ServerID != plain || c.Status != tunnels.StatusClosed {
		t.Errorf("close of a server without a tunnel: %+v, %v", c, err)
	}
	if sv := listed(t, f, plain); sv.URL != "https://x.example/mcp" {
		t.Errorf("the server after close: %+v", sv)
	}
	_, err = f.C.Tunnels.Close(t.Context(), other, g.ServerID) // a tunnel of another project
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Tunnels.Create(t.Context(), "prj_nope", tunnels.CreateParams{Name: "x"})
	wantError(t, err, projectops.CodeNotFound, true)
	_, err = f.C.Tunnels.Close(t.Context(), f.WS.ProjectID, "")
	wantField(t, err, "serverId", false)
	// None of it touched the tunnel.
	serve(t, f, g, echo)
	if status, _ := get(t, f, http.MethodGet, g.URL, ""); status != http.StatusAccepted {
		t.Errorf("tunnel after denied calls: %d", status)
	}
}

// Names are trimmed as the service's schema trims them (JavaScript's
// trim): a BOM goes, a NEL stays.
func TestTunnelNameTrimmedAsJavaScript(t *testing.T) {
	t.Parallel()
	f := setup(t)
	for given, want := range map[string]string{"\ufeffbom": "bom", "nel\u0085": "nel\u0085"} {
		if g := create(t, f, given); g.Name != want {
			t.Errorf("name %q: registered as %q, want %q", given, g.Name, want)
		}
	}
	_, err := f.C.Tunnels.Create(t.Context(), f.WS.ProjectID, tunnels.CreateParams{Name: "\ufeff"})
	wantField(t, err, "name", true)
}

// A name of a NEL alone is a name (JavaScript's trim keeps it), not blank:
// registered as given.
func TestTunnelNameOnlyNEL(t *testing.T) {
	t.Parallel()
	f := setup(t)
	if g := create(t, f, "\u0085"); g.Name != "\u0085" {
		t.Errorf("registered as %q", g.Name)
	}
}

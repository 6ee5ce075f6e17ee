package tunnels_test

import (
	"fmt"
	"log/slog"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/projectops/projectops-go/internal/leaktest"
	"github.com/projectops/projectops-go/shared"
	"github.com/projectops/projectops-go/tunnels"
)

// TestGrantSecretsNeverPrinted: a grant's URL secret, however its name is
// spelled (k, K, %6B), and its connect token never show in any verb or
// log, nested or behind a pointer, nor in PublicURL.
func TestGrantSecretsNeverPrinted(t *testing.T) {
	t.Parallel()
	for _, u := range []string{"https://relay.example/t/slug/mcp?k=SEKRIT-K1", "https://relay.example/t/slug/mcp?a=1&K=SEKRIT-K2",
		"https://relay.example/t/slug/mcp?%6B=SEKRIT-K3"} {
		g := tunnels.Grant{ServerID: "srv", Name: "n", Slug: "slug", URL: u, ConnectToken: "ct_SEKRIT-CT",
			PreviousURL: "https://relay.example/t/slug/mcp?k=SEKRIT-PREV", RelayWSURL: "wss://relay.example/ws"}
		leaktest.NoLeak(t, "Grant "+u, g, false, "SEKRIT")
		if s := g.PublicURL(); strings.Contains(s, "SEKRIT") {
			t.Errorf("PublicURL() = %s", s)
		}
	}
}

// TestGrantPrintsFieldNames: %v of a grant labels every field with its Go
// name and shows no label that is not one, so a reader can find each value
// (ConnectTokenExpiresAt among them) in the struct.
func TestGrantPrintsFieldNames(t *testing.T) {
	t.Parallel()
	g := tunnels.Grant{ServerID: "srv", Name: "n", Existed: true, PreviousURL: "https://old.example/mcp",
		PreviousTransportType: "stdio", Slug: "slug", URL: "https://relay.example/t/slug/mcp?k=SEKRIT", ConnectToken: "ct",
		ConnectTokenExpiresAt: shared.MillisOf(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)), RelayWSURL: "wss://relay.example/ws",
		SecretVersion: 3, ProjectID: "prj"}
	s := fmt.Sprint(g)
	labels := map[string]bool{}
	for _, m := range regexp.MustCompile(`[{ ]([A-Za-z]+):`).FindAllStringSubmatch(s, -1) {
		labels[m[1]] = true
	}
	typ := reflect.TypeFor[tunnels.Grant]()
	fields := map[string]bool{}
	for i := range typ.NumField() {
		name := typ.Field(i).Name
		fields[name] = true
		if !labels[name] {
			t.Errorf("%%v = %s: no %s: label", s, name)
		}
	}
	for l := range labels {
		if !fields[l] {
			t.Errorf("%%v = %s: label %s: names no field of Grant", s, l)
		}
	}
	if !strings.Contains(s, `ConnectTokenExpiresAt:"2026-01-02T03:04:05Z"`) {
		t.Errorf("%%v = %s: the expiry is not shown as a time", s)
	}
}

// TestGrantLogsEveryField: slog shows every field of a grant under its
// JSON name, as String does under its Go name, and none of its secrets.
func TestGrantLogsEveryField(t *testing.T) {
	t.Parallel()
	g := tunnels.Grant{ServerID: "srv", Name: "n", Existed: true, PreviousURL: "https://old.example/mcp?k=OLDSEKRIT",
		PreviousTransportType: "stdio", Slug: "slug", URL: "https://relay.example/t/slug/mcp?k=SEKRIT", ConnectToken: "ct_TOKEN",
		ConnectTokenExpiresAt: 1767323045000, RelayWSURL: "wss://relay.example/ws", SecretVersion: 3, ProjectID: "prj"}
	var buf strings.Builder
	slog.New(slog.NewTextHandler(&buf, nil)).Info("grant", "g", g)
	out := buf.String()
	typ := reflect.TypeFor[tunnels.Grant]()
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		if name == "-" {
			name = "projectId" // kept out of JSON, logged under the service's name
		}
		if !strings.Contains(out, "g."+name+"=") {
			t.Errorf("slog of a grant has no %s: %s", name, out)
		}
	}
	for _, secret := range []string{"SEKRIT", "ct_TOKEN"} {
		if strings.Contains(out, secret) {
			t.Errorf("slog of a grant shows %s: %s", secret, out)
		}
	}
}

package projectops_test

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/environments"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/ingest"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/tunnels"
)

// printHeaderSecret is a client header's value (a proxy's token, say):
// docs/sdk.md counts headers among the secrets nothing prints.
const printHeaderSecret = "HEADER-SECRET-42"

// Every exported value that holds the client's transport prints neither
// its headers nor its key, in any verb and through slog: fmt calls no
// method on the transport there (it sits in an unexported field), and its
// bad-verb path (%s, %q on a struct without String) expands the pointer it
// cannot format.
func TestServicePrintHidesClientHeaders(t *testing.T) {
	t.Parallel()
	opts := []option.RequestOption{option.WithoutEnvironment(), option.WithAPIKey(optKey),
		option.WithHeader("X-Proxy-Token", printHeaderSecret)}
	c, err := projectops.NewClient(opts...)
	if err != nil {
		t.Fatal(err)
	}
	rep, err := ingest.NewReporter(c.Ingest, ingest.ReporterOptions{Run: ingest.RunParams{SuiteName: "s"}, NoSpool: true})
	if err != nil {
		t.Fatal(err)
	}
	vals := map[string]any{
		"*Client": c, "Client": *c, "Client.Catalog": c.Catalog, "Client.Servers": c.Servers,
		"Client.Hosts": c.Hosts, "Client.Tunnels": c.Tunnels, "Client.Environments": c.Environments,
		"Client.Ingest": c.Ingest, "Client.Evals": c.Evals, "Client.Evals.Suites": c.Evals.Suites,
		"Client.Evals.Runs": c.Evals.Runs, "ingest.Reporter": rep, "[]any{services}": []any{c.Catalog, c.Evals},
	}
	standalone := map[string]func() (any, error){
		"catalog":      func() (any, error) { return catalog.NewService(opts...) },
		"servers":      func() (any, error) { return servers.NewService(opts...) },
		"hosts":        func() (any, error) { return hosts.NewService(opts...) },
		"tunnels":      func() (any, error) { return tunnels.NewService(opts...) },
		"environments": func() (any, error) { return environments.NewService(opts...) },
		"ingest":       func() (any, error) { return ingest.NewService(opts...) },
		"evals":        func() (any, error) { return evals.NewService(opts...) },
	}
	for name, build := range standalone {
		s, err := build()
		if err != nil {
			t.Fatalf("%s.NewService: %v", name, err)
		}
		vals[name+".NewService"] = s
	}
	secrets := []string{printHeaderSecret, "SECRET123", hex.EncodeToString([]byte(printHeaderSecret)), hex.EncodeToString([]byte("SECRET123"))}
	leaks := func(out string) bool {
		for _, s := range secrets {
			if strings.Contains(strings.ToLower(out), strings.ToLower(s)) {
				return true
			}
		}
		return false
	}
	for name, v := range vals {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%X", "%d"} {
			if out := fmt.Sprintf(verb, v); leaks(out) {
				t.Errorf("%s printed with %s shows a secret: %.300s", name, verb, out)
			}
		}
		var b bytes.Buffer
		slog.New(slog.NewJSONHandler(&b, nil)).Info("v", "v", v)
		slog.New(slog.NewTextHandler(&b, nil)).Info("v", "v", v)
		if leaks(b.String()) {
			t.Errorf("%s logged with slog shows a secret: %.300s", name, b.String())
		}
	}
}

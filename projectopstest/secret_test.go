package projectopstest_test

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

func TestSecretsNeverPrint(t *testing.T) {
	t.Parallel()
	const plain = "sk_super_secret_value"
	values := []any{
		projectopstest.Secret(plain),
		projectopstest.ServerSpec{Name: "s", Env: map[string]projectopstest.Secret{"TOKEN": plain},
			Headers: map[string]projectopstest.Secret{"Authorization": plain}, ClientSecret: plain},
		&projectopstest.ServerSpec{Env: map[string]projectopstest.Secret{"TOKEN": plain}},
		projectopstest.APIKeySpec{UserID: "u", Secret: plain},
		projectopstest.Workspace{APIKey: plain, APIKeyID: "key_1"},
		map[string]projectopstest.Secret{"k": plain},
		&projectopstest.Seed{APIKeys: []projectopstest.APIKeySpec{{Secret: plain}}},
		projectopstest.ModelRequest{Model: "gpt", Provider: "openai", APIKey: plain},
	}
	srv := projectopstest.NewTestServer(t)
	values = append(values, srv)
	if out := fmt.Sprintf("%+v %#v %v", srv, srv, srv.Default()); strings.Contains(out, srv.Default().APIKey) {
		t.Errorf("server or workspace formatting leaks the default key: %s", out)
	}
	for _, v := range values {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s", "%q", "%x", "%d"} {
			if out := fmt.Sprintf(verb, v); strings.Contains(out, plain) || strings.Contains(out, fmt.Sprintf("%x", plain)) {
				t.Errorf("%s of %T leaks the secret: %s", verb, v, out)
			}
		}
		// Logged as an attribute of its own (LogValue; a value nested in
		// a slice reaches encoding/json, which keeps the seed format).
		var logs bytes.Buffer
		if _, bare := v.(map[string]projectopstest.Secret); !bare { // a map has no LogValue
			slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "v", v)
		}
		slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "v", v, "in", []any{v})
		if strings.Contains(logs.String(), plain) {
			t.Errorf("slog of %T leaks the secret: %s", v, logs.String())
		}
	}
}

// TestServerSpecHidesCommandLine: a STDIO command line and arguments (which
// often carry tokens) print under no verb, %#v included.
func TestServerSpecHidesCommandLine(t *testing.T) {
	t.Parallel()
	const plain = "tok_in_argv"
	for _, v := range []any{
		projectopstest.ServerSpec{Name: "s", Command: "serve --token=" + plain, Args: []string{"--key", plain}},
		&projectopstest.ServerSpec{Name: "s", Command: "serve", Args: []string{plain}},
		[]projectopstest.ServerSpec{{Args: []string{plain}}},
	} {
		for _, verb := range []string{"%v", "%+v", "%#v", "%s"} {
			if out := fmt.Sprintf(verb, v); strings.Contains(out, plain) {
				t.Errorf("%s of %T shows the command line: %s", verb, v, out)
			}
		}
	}
}

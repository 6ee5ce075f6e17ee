package hosts_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/sdktest"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
)

// TestConfigErrorEchoRedacted: a host config's header values a service
// quotes back from the request body in its error never reach the SDK's
// error, on create or update.
func TestConfigErrorEchoRedacted(t *testing.T) {
	t.Parallel()
	svc, err := hosts.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x"), option.WithBaseURL(sdktest.EchoBodyServer(t)), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	c := hosts.Config(`{"connectionDefaults":{"headers":{"Authorization":"Bearer SEKRIT-H1"}},` +
		`"serverOverrides":{"x":{"headersOverride":{"X-Api-Key":"SEKRIT-H2"}}},"servers":[{"url":"https://r.example/t/s/mcp?k=SEKRIT-K3"}]}`)
	_, cerr := svc.Create(t.Context(), "prj_1", hosts.CreateParams{Name: "n", Config: c})
	_, uerr := svc.Update(t.Context(), "prj_1", "host_1", hosts.UpdateParams{Config: c})
	for _, err := range []error{cerr, uerr} {
		if err == nil {
			t.Fatal("no error")
		}
		for _, s := range []string{err.Error(), fmt.Sprintf("%#v", err)} {
			if strings.Contains(s, "SEKRIT") {
				t.Errorf("error shows a header value: %.500s", s)
			}
		}
	}
}

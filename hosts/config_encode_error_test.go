package hosts_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/shared"
)

// A Config that is not JSON is refused before sending as every other
// pre-send mistake is (docs/sdk.md "Errors"): a status-0 VALIDATION_ERROR
// naming the field, which errors.Is matches, and which never quotes the
// config (it may hold credentials).
func TestConfigEncodeErrorIsTyped(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	h, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude})
	if err != nil {
		t.Fatal(err)
	}
	const secret = "sk-not-for-errors"
	bad := hosts.Config(`{"modelId":"m","connectionDefaults":{"headers":{"Authorization":"` + secret + `"}},`)
	before := len(f.Srv.Requests())
	for name, call := range map[string]func() error{
		"Create": func() error {
			_, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "y", Config: bad})
			return err
		},
		"Update": func() error {
			_, err := f.C.Hosts.Update(ctx, p, h.ID, hosts.UpdateParams{Config: bad})
			return err
		},
	} {
		err := call()
		var se *shared.Error
		if !errors.As(err, &se) {
			t.Errorf("%s: error %T %v is not a *shared.Error", name, err, err)
			continue
		}
		if se.StatusCode != 0 || !errors.Is(err, shared.ErrValidation) || se.Details["field"] != "config" {
			t.Errorf("%s: got status %d code %s details %v, want a status-0 VALIDATION_ERROR on config", name, se.StatusCode, se.Code, se.Details)
		}
		if strings.Contains(err.Error(), secret) {
			t.Errorf("%s: the error quotes the config: %v", name, err)
		}
	}
	if n := len(f.Srv.Requests()); n != before {
		t.Errorf("a malformed config reached the service (%d requests)", n-before)
	}
}

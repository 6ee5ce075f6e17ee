package projectops_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
)

// A write answered with a 3xx becomes a *projectops.Error whose RequestID is
// taken from X-Request-Id. It passes through the same cleaning as every
// other error answer's ("an echo of anything, the key too", do.go):
// docs/sdk.md promises "Error text never contains the API key", and a
// gateway that reflects the Authorization header into X-Request-Id on a
// redirect would put the key into err.Error(), %v, %+v and slog output.
func TestRedirectErrorRequestIDHidesKey(t *testing.T) {
	t.Parallel()
	const key = "sk_live_zzRedirectSecret0123456789"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", r.Header.Get("Authorization")) // a reflecting gateway
		w.Header().Set("Location", "/elsewhere")
		w.WriteHeader(http.StatusFound)
	}))
	defer ts.Close()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey(key), option.WithBaseURL(ts.URL+"/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	var meta option.Response
	_, err = c.Hosts.Create(t.Context(), "prj_1", hosts.CreateParams{Name: "n", Template: hosts.TemplateClaude},
		option.WithResponseInto(&meta))
	var e *projectops.Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusFound {
		t.Fatalf("err = %v, want a 302 *projectops.Error", err)
	}
	// The same header, through WithResponseInto, is redacted: only the error is not.
	if strings.Contains(meta.RequestID, key) {
		t.Errorf("meta.RequestID shows the key")
	}
	for verb, s := range map[string]string{"Error()": err.Error(), "%+v": fmt.Sprintf("%+v", err), "RequestID": e.RequestID} {
		if strings.Contains(s, key) {
			t.Errorf("%s shows the API key: %s", verb, s)
		}
	}
}

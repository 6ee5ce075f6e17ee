package servers_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// An error answer to ImportTokens has its message and details scrubbed of
// the request's OAuth tokens (req.Scrub), and WithResponseInto's RequestID
// too; the *Error's RequestID must be as well, not only cleaned of the key
// and tunnel secrets. A gateway that reflects the request into X-Request-Id
// would put the access token into err.Error(). README "Secrets": "API
// keys, tunnel ?k= secrets, OAuth tokens ... never appear in errors, logs,
// %v output".
func TestImportTokensErrorRequestIDHidesToken(t *testing.T) {
	t.Parallel()
	const tok = "ya29_zzAccessToken_0123456789abcdef"
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Tokens struct {
				AccessToken string `json:"access_token"`
			} `json:"tokens"`
		}
		_ = json.NewDecoder(r.Body).Decode(&body)
		w.Header().Set("X-Request-Id", body.Tokens.AccessToken) // a reflecting gateway
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		fmt.Fprintf(w, `{"code":"VALIDATION_ERROR","message":"bad token %s"}`, body.Tokens.AccessToken)
	}))
	defer ts.Close()
	s, err := servers.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_test_zz"), option.WithBaseURL(ts.URL+"/api/v1"))
	if err != nil {
		t.Fatal(err)
	}
	var meta option.Response
	_, err = s.ImportTokens(t.Context(), "prj_1", "srv_1", servers.ImportTokensParams{ServerURL: "https://mcp.example/mcp",
		Tokens: servers.Tokens{AccessToken: tok, TokenType: "Bearer"}}, option.WithResponseInto(&meta))
	var e *shared.Error
	if !errors.As(err, &e) || e.StatusCode != http.StatusBadRequest {
		t.Fatalf("err = %v, want a 400 *shared.Error", err)
	}
	if strings.Contains(e.Message, tok) || strings.Contains(meta.RequestID, tok) {
		t.Fatalf("precondition: the message and the metadata are scrubbed (message %q, meta %q)", e.Message, meta.RequestID)
	}
	if strings.Contains(err.Error(), tok) {
		t.Errorf("err.Error() shows the OAuth access token: %s", err)
	}
}

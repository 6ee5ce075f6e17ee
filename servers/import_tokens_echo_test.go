package servers_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/servers"
)

// echoServer answers every request with an error whose message, details
// and request id quote what the request carried, as a service or a proxy
// in front of it may.
func echoServer(t *testing.T, status int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var decoded any
		_ = json.Unmarshal(body, &decoded)
		w.Header().Set("X-Request-Id", "req_"+r.Header.Get("Authorization"))
		w.Header().Set("X-Echo", r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(map[string]any{"code": "VALIDATION_ERROR",
			"message": "bad request body: " + string(body) + " uri=" + r.RequestURI,
			"details": map[string]any{"body": decoded, "authorization": r.Header.Get("Authorization")}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestImportTokensErrorEchoRedacted: tokens, the client secret and the API
// key a server quotes back in its error (message, details, request id,
// headers) are redacted in the error, its logs and option.Response.
func TestImportTokensErrorEchoRedacted(t *testing.T) {
	t.Parallel()
	for _, status := range []int{400, 422, 500} {
		srv := echoServer(t, status)
		var logs bytes.Buffer
		logger := slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
		svc, err := servers.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_SEKRIT-APIKEY"),
			option.WithBaseURL(srv.URL+"/api/v1"), option.WithLogger(logger), option.WithMaxRetries(0))
		if err != nil {
			t.Fatal(err)
		}
		var resp option.Response
		_, err = svc.ImportTokens(t.Context(), "prj_1", "srv_1", servers.ImportTokensParams{
			ServerURL:         "https://relay.example/t/s/mcp?k=SEKRIT-K",
			ClientInformation: &servers.ClientInformation{ClientID: "cid", ClientSecret: "SEKRIT-CS"},
			Tokens:            servers.Tokens{AccessToken: "SEKRIT-AT", RefreshToken: "SEKRIT-RT", IDToken: "SEKRIT-ID"}},
			option.WithResponseInto(&resp))
		if err == nil {
			t.Fatal("no error")
		}
		for how, s := range map[string]string{
			"Error()": err.Error(), "%+v": fmt.Sprintf("%+v", err), "%#v": fmt.Sprintf("%#v", err),
			"log": logs.String(), "response": fmt.Sprintf("%+v %v", resp, resp.Header),
		} {
			if strings.Contains(s, "SEKRIT") {
				t.Errorf("%d [%s]: %.700s", status, how, s)
			}
		}
		if !strings.Contains(err.Error(), "cid") {
			t.Errorf("the error lost what is not secret: %v", err)
		}
	}
}

package projectopstest_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/projectopstest"
)

// FuzzRouteBodies sends arbitrary bodies to every route that takes one,
// as the default workspace's owner: whatever arrives, the double answers
// with a status below 500 and, for an error, the {code, message} envelope.
//
//	go test -run '^$' -fuzz FuzzRouteBodies -fuzztime 2m ./projectopstest/
func FuzzRouteBodies(f *testing.F) {
	srv := projectopstest.NewTestServer(f, noLimit)
	ws := srv.Default()
	var routes []string
	for _, r := range srv.Routes() {
		if m, _, _ := strings.Cut(r, " "); m == "POST" || m == "PATCH" || m == "DELETE" {
			routes = append(routes, r)
		}
	}
	for i := range routes {
		for _, body := range []string{`{}`, `{"name":"x"}`, `{"results":[{"caseTitle":"c","passed":true}]}`, `[`, `null`,
			`{"config":{"temperature":1e400}}`, "{\"a\":\"\xff\"}", `{"a":1,"a":2}`} {
			f.Add(uint8(i), []byte(body))
		}
	}
	client := srv.Client()
	f.Fuzz(func(t *testing.T, pick uint8, body []byte) {
		route := routes[int(pick)%len(routes)]
		method, pattern, _ := strings.Cut(route, " ")
		path := strings.NewReplacer("{projectId}", ws.ProjectID, "{token}", "tok").Replace(pattern)
		for strings.Contains(path, "{") { // any other id: one the double may not have
			i, j := strings.Index(path, "{"), strings.Index(path, "}")
			path = path[:i] + "x1" + path[j+1:]
		}
		req, err := http.NewRequestWithContext(t.Context(), method, projectopstest.InProcessURL+path, bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s %s %q: %v", method, path, body, err)
		}
		out, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 500 {
			t.Fatalf("%s %s %q: %d %s", method, path, body, resp.StatusCode, out)
		}
		if resp.StatusCode >= 400 {
			var env struct{ Code, Message string }
			if json.Unmarshal(out, &env) != nil || env.Code == "" || env.Message == "" {
				t.Fatalf("%s %s %q: %d without the envelope: %s", method, path, body, resp.StatusCode, out)
			}
		}
	})
}

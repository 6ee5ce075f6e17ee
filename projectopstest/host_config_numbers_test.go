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

// Hosts whose configs differ only in how a number is spelled share one
// stored config row (reference notes, "Host config v2 validation"), and
// the service stores JSON.stringify's text, so every host reads back the
// same config, with numbers in JavaScript's shortest form.
func TestHostConfigNumbersReadBackCanonical(t *testing.T) {
	t.Parallel()
	srv := projectopstest.NewTestServer(t, projectopstest.WithRateLimit(0, 0))
	ws := srv.Default()
	url := srv.URL() + "/projects/" + ws.ProjectID + "/hosts"

	const tmpl = `{"name":"n","config":{"hostStyle":"mcpjam","modelId":"openai/gpt-5-nano","systemPrompt":"",` +
		`"temperature":TEMP,"requireToolApproval":false,"respectToolVisibility":true,"serverIds":[],` +
		`"optionalServerIds":[],"builtInToolIds":[],"connectionDefaults":{"headers":{},"requestTimeout":RT},` +
		`"clientCapabilities":{},"hostContext":{}}}`
	create := func(temp, rt string) (id string, config json.RawMessage) {
		t.Helper()
		body := strings.NewReplacer("TEMP", temp, "RT", rt).Replace(tmpl)
		req, _ := http.NewRequestWithContext(t.Context(), "POST", url, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+ws.APIKey)
		req.Header.Set("Content-Type", "application/json")
		resp, err := srv.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 201 {
			t.Fatalf("create: %d %s", resp.StatusCode, b)
		}
		var d struct {
			Config json.RawMessage `json:"config"`
		}
		if err := json.Unmarshal(b, &d); err != nil {
			t.Fatal(err)
		}
		var withID struct {
			ID string `json:"id"`
		}
		_ = json.Unmarshal(d.Config, &withID)
		return withID.ID, d.Config
	}
	idA, cfgA := create("0.7", "10000")
	for _, spelling := range [][2]string{{"0.70", "1e4"}, {"7e-1", "10000.0"}} {
		idB, cfgB := create(spelling[0], spelling[1])
		if idA != idB {
			t.Fatalf("%v: config ids differ (%s, %s): the same config must dedupe into one row", spelling, idA, idB)
		}
		if !bytes.Equal(cfgA, cfgB) {
			t.Errorf("%v: hosts sharing config row %s read back different configs:\n A: %s\n B: %s", spelling, idA, cfgA, cfgB)
		}
	}
	var got struct {
		Temperature        json.RawMessage `json:"temperature"`
		ConnectionDefaults struct {
			RequestTimeout json.RawMessage `json:"requestTimeout"`
		} `json:"connectionDefaults"`
	}
	if err := json.Unmarshal(cfgA, &got); err != nil {
		t.Fatal(err)
	}
	if string(got.Temperature) != "0.7" || string(got.ConnectionDefaults.RequestTimeout) != "10000" {
		t.Errorf("read-back temperature %s, requestTimeout %s; want 0.7 and 10000", got.Temperature, got.ConnectionDefaults.RequestTimeout)
	}
}

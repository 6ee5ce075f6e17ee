package catalog_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/catalog"
)

// TestChatboxServerURLNeverPrinted: a chatbox's attached tunnel server keeps
// its ?k= secret on the wire but not when printed or logged.
func TestChatboxServerURLNeverPrinted(t *testing.T) {
	t.Parallel()
	d := catalog.ChatboxDetail{Servers: []catalog.ChatboxServer{{ID: "srv_1", URL: "https://relay.example/tunnels/t1/mcp?k=s3cret"}}}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "server", d.Servers[0], "detail", d)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "detail", d)
	if !strings.Contains(logs.String(), `"servers":[{"id":"srv_1"`) || !strings.Contains(logs.String(), "k=REDACTED") {
		t.Errorf("the detail's log lost its servers: %s", logs.String())
	}
	if printed := fmt.Sprintf("%v %+v %#v", d, d, d) + logs.String(); strings.Contains(printed, "s3cret") {
		t.Errorf("printed: %s", printed)
	}
	if b, err := json.Marshal(d); err != nil || !strings.Contains(string(b), "k=s3cret") {
		t.Errorf("JSON %s (%v) lost the wire value", b, err)
	}
}

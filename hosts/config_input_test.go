package hosts_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
	"github.com/projectops/projectops-go/projectopstest"
)

// A host read and its Config sent back unchanged is a valid update: the
// SDK leaves out the read-back-only id and schemaVersion, which the
// service (and the double) refuse as input, and the config reads back as
// it was, with the same content address.
func TestUpdateWithReadConfigRoundTrips(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx, p := t.Context(), f.WS.ProjectID
	id := must(t)(f.Srv.AddHost(projectopstest.HostSpec{ProjectID: p, Name: "H", Template: hosts.TemplateClaude}))
	before, err := f.C.Hosts.Get(ctx, p, id)
	if err != nil {
		t.Fatal(err)
	}
	after, err := f.C.Hosts.Update(ctx, p, id, hosts.UpdateParams{Config: before.Config})
	if err != nil {
		t.Fatalf("Update with the config as read: %v", err)
	}
	if !after.Config.Equal(before.Config) {
		t.Errorf("config changed by a round trip:\nbefore %s\nafter  %s", before.Config, after.Config)
	}
	created, err := f.C.Hosts.Create(ctx, p, hosts.CreateParams{Name: "Copy", Config: before.Config})
	if err != nil {
		t.Fatalf("Create with a config as read: %v", err)
	}
	if !created.Config.Equal(before.Config) {
		t.Errorf("copied config differs:\nread   %s\ncopied %s", before.Config, created.Config)
	}
}

// The config Create and Update send is the Config less its top-level id
// and schemaVersion (however their names are spelled, duplicates too),
// every other member as written: in order, nested id and schemaVersion
// kept, numbers exact. A config with neither goes as is.
func TestConfigSentWithoutReadBackKeys(t *testing.T) {
	t.Parallel()
	bodies := make(chan []byte, 2)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		bodies <- b
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(200)
		_, _ = io.WriteString(w, `{"id":"hst_1","name":"h","config":{}}`)
	}))
	defer srv.Close()
	hs, err := hosts.NewService(option.WithoutEnvironment(), option.WithAPIKey("sk_x1234567890"),
		option.WithBaseURL(srv.URL+"/api/v1"), option.WithMaxRetries(0))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, config, sent string }{
		{"read-back keys", `{"id":"cfg_1","zeta":1,"schemaVersion":2,"temperature":0.70,` +
			`"big":123456789012345678901234567890.5e-3,"long":9007199254740993,"ID":"kept",` +
			`"a":{"id":"nested","schemaVersion":9},"\u0069d":"escaped","id":"again","m":"x"}`,
			`{"zeta":1,"temperature":0.70,"big":123456789012345678901234567890.5e-3,"long":9007199254740993,` +
				`"ID":"kept","a":{"id":"nested","schemaVersion":9},"m":"x"}`},
		{"neither", `{"b":1.000,"a":[1e400]}`, `{"b":1.000,"a":[1e400]}`},
		{"only read-back keys", `{"id":"x","schemaVersion":2}`, `{}`},
		{"white space", " {\n \"a\" : 1 ,\n \"id\" : 2 , \"b\":[1, 2] ,\"schemaVersion\":3}\n", `{"a":1,"b":[1,2]}`},
		{"white space, first dropped", `{ "id":1 , "a":2 }`, `{"a":2}`},
	}
	for _, tt := range tests {
		cfg := hosts.Config(tt.config)
		if _, err := hs.Create(t.Context(), "p", hosts.CreateParams{Name: "h", Config: cfg}); err != nil {
			t.Fatal(err)
		}
		if _, err := hs.Update(t.Context(), "p", "hst_1", hosts.UpdateParams{Config: cfg}); err != nil {
			t.Fatal(err)
		}
		for i := range 2 {
			b := <-bodies
			var body struct{ Config json.RawMessage }
			if err := json.Unmarshal(b, &body); err != nil {
				t.Fatalf("%s: request %d body %s: %v", tt.name, i, b, err)
			}
			if !bytes.Equal(body.Config, []byte(tt.sent)) {
				t.Errorf("%s: request %d sent config\n%s\nwant\n%s", tt.name, i, body.Config, tt.sent)
			}
		}
		if string(cfg) != tt.config {
			t.Errorf("%s: the caller's Config changed: %s", tt.name, cfg)
		}
	}
}

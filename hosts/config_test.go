package hosts_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/internal/sdktest"
	"github.com/projectops/projectops-go/shared"
)

func TestNewConfig(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string // "" = error
	}{
		{"map", map[string]any{"modelId": "m"}, `{"modelId":"m"}`},
		{"struct", struct {
			ModelID string `json:"modelId"`
		}{"m"}, `{"modelId":"m"}`},
		{"raw string kept verbatim", ` {"b": 1, "a": 2} `, `{"b": 1, "a": 2}`},
		{"bytes", []byte(`{}`), `{}`},
		{"array", []any{1}, ""},
		{"number", 5, ""},
		{"null", nil, ""},
		{"invalid JSON", `{"a":`, ""},
		{"unencodable", map[string]any{"f": func() {}}, ""},
		{"NaN", map[string]any{"temperature": math.NaN()}, ""},
		{"marshaler failing", map[string]any{"h": leakyMarshaler{}}, ""},
		{"invalid raw JSON value", map[string]any{"h": json.RawMessage(`{"secret-token":`)}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := hosts.NewConfig(tc.in)
			if tc.want == "" {
				// A typed, status-0 VALIDATION_ERROR on config, as a
				// malformed Config given to Create is, never quoting v.
				var se *shared.Error
				if !errors.As(err, &se) || se.StatusCode != 0 || !errors.Is(err, shared.ErrValidation) || se.Details["field"] != "config" {
					t.Fatalf("NewConfig(%v) = %s, %v; want a VALIDATION_ERROR on config", tc.in, c, err)
				}
				if strings.Contains(err.Error(), "secret-token") {
					t.Errorf("the error quotes the config: %v", err)
				}
				return
			}
			if err != nil || string(c) != tc.want {
				t.Fatalf("NewConfig = %s, %v; want %s", c, err, tc.want)
			}
		})
	}
}

// leakyMarshaler fails with an error that quotes a credential, as a
// careless MarshalJSON may.
type leakyMarshaler struct{}

func (leakyMarshaler) MarshalJSON() ([]byte, error) {
	return nil, errors.New("cannot encode header secret-token")
}

func TestConfigAccessors(t *testing.T) {
	c := hosts.MustConfig(`{"modelId":"openai/gpt-5","budget":12345678901234567890,"nested":{"x":[1,2]}}`)
	if got := c.ModelID(); got != "openai/gpt-5" {
		t.Errorf("ModelID = %q", got)
	}
	m, err := c.Map()
	if err != nil {
		t.Fatal(err)
	}
	if m["budget"] != json.Number("12345678901234567890") {
		t.Errorf("Map kept budget as %#v, want the exact json.Number", m["budget"])
	}
	var v struct {
		Nested struct{ X []int } `json:"nested"`
	}
	if err := c.Decode(&v); err != nil || len(v.Nested.X) != 2 {
		t.Errorf("Decode = %+v, %v", v, err)
	}
	if hosts.MustConfig(`{"modelId":5}`).ModelID() != "" {
		t.Error("a non-string modelId reads as a model id")
	}
	var zero hosts.Config
	if zero.ModelID() != "" || zero.Decode(&v) == nil {
		t.Error("the zero config decodes")
	}
	if m, err := zero.Map(); m != nil || err != nil {
		t.Errorf("zero Map = %v, %v", m, err)
	}
	if c.String() != string(c) || fmt.Sprintf("%v", c) != string(c) {
		t.Errorf("String = %q", c.String())
	}
}

// Connection headers carry credentials: no fmt verb and no slog handler
// shows their values, while the bytes sent stay whole.
func TestConfigPrintsNoHeaderValues(t *testing.T) {
	c := hosts.MustConfig(`{"modelId":"m","connectionDefaults":{"headers":{"Authorization":"Bearer tok-AAA"},"requestTimeout":10000},` +
		`"serverConnectionOverrides":{"s1":{"headersOverride":{"X-Key":"tok-BBB"}}}}`)
	// A key spelled with an escape is the same key.
	if esc := hosts.MustConfig(`{"connectionDefaults":{"h\u0065aders":{"Y":"tok-CCC"}}}`); strings.Contains(esc.String(), "tok-") {
		t.Errorf("an escaped headers key shows its values: %s", esc)
	}
	var logs bytes.Buffer
	slog.New(slog.NewJSONHandler(&logs, nil)).Info("x", "cfg", c)
	slog.New(slog.NewTextHandler(&logs, nil)).Info("x", "cfg", c)
	d := hosts.HostDetail{Config: c}
	for _, out := range []string{c.String(), fmt.Sprintf("%v %+v %#v %s %q %x %d", c, c, c, c, c, c, c),
		fmt.Sprintf("%v %+v", d, d), logs.String()} {
		if strings.Contains(out, "tok-") || strings.Contains(out, "746f6b2d") || strings.Contains(out, "116 111 107 45") {
			t.Errorf("a header value shows: %s", out)
		}
	}
	if !strings.Contains(c.String(), `"Authorization":"[REDACTED]"`) || !strings.Contains(string(c), "tok-AAA") {
		t.Errorf("String = %s", c)
	}
	if b, _ := json.Marshal(hosts.UpdateParams{Config: c}); !bytes.Contains(b, []byte("tok-BBB")) {
		t.Errorf("the wire form lost a header: %s", b)
	}
}

func TestConfigEqual(t *testing.T) {
	a := hosts.MustConfig(`{"a":1,"b":{"c":[true,null]}}`)
	b := hosts.MustConfig(`{ "b": {"c": [true, null]}, "a": 1 }`)
	if !a.Equal(b) || cmp.Diff(a, b) != "" {
		t.Error("same value in another key order is not equal")
	}
	if a.Equal(hosts.MustConfig(`{"a":2,"b":{"c":[true,null]}}`)) {
		t.Error("different values are equal")
	}
	if a.Equal(nil) || !hosts.Config(nil).Equal(hosts.Config{}) {
		t.Error("empty configs compare wrongly")
	}
}

func TestConfigJSON(t *testing.T) {
	var d hosts.HostDetail
	if err := json.Unmarshal([]byte(`{"id":"h","name":"n","config":{"k": 1.50}}`), &d); err != nil {
		t.Fatal(err)
	}
	if string(d.Config) != `{"k": 1.50}` {
		t.Errorf("decoded config = %s, want the exact bytes", d.Config)
	}
	if err := json.Unmarshal([]byte(`{"config":null}`), &d); err != nil || d.Config != nil {
		t.Errorf("null config = %s, %v", d.Config, err)
	}
	b, err := json.Marshal(hosts.CreateParams{Name: "n"})
	if err != nil || string(b) != `{"name":"n"}` {
		t.Errorf("absent config encodes as %s, %v", b, err)
	}
	if _, err := json.Marshal(hosts.CreateParams{Name: "n", Config: hosts.Config(`{"a":`)}); err == nil {
		t.Error("a malformed config encodes")
	}
}

// A config reads back as the service stores it (numbers as JSON.stringify
// writes them), the SDK keeping the digits it is sent, and a malformed
// config is refused before anything is sent.
func TestConfigRoundTrip(t *testing.T) {
	t.Parallel()
	f := setup(t)
	ctx := t.Context()
	in := hosts.MustConfig(`{"modelId":"m","temperature":0.1,"hostContext":{},"clientCapabilities":{},
		"connectionDefaults":{"headers":{},"requestTimeout":12345678901234567890}}`)
	h, err := f.C.Hosts.Create(ctx, f.WS.ProjectID, hosts.CreateParams{Name: "n", Config: in})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.C.Hosts.Get(ctx, f.WS.ProjectID, h.ID)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(h.Config, got.Config); diff != "" {
		t.Errorf("config after round trip (-created +stored):\n%s", diff)
	}
	if !strings.Contains(string(got.Config), `"temperature":0.1`) {
		t.Errorf("temperature changed: %s", got.Config)
	}
	if !strings.Contains(string(got.Config), `"requestTimeout":12345678901234567000`) {
		t.Errorf("large integer not as the service writes it: %s", got.Config)
	}
	var d hosts.HostDetail
	if err := json.Unmarshal([]byte(`{"config":{"requestTimeout":12345678901234567890}}`), &d); err != nil ||
		string(d.Config) != `{"requestTimeout":12345678901234567890}` {
		t.Errorf("the SDK rewrote the config it was sent: %s, %v", d.Config, err)
	}

	before := len(f.Srv.Requests())
	_, err = f.C.Hosts.Create(ctx, f.WS.ProjectID, hosts.CreateParams{Name: "bad", Config: hosts.Config(`{"a":`)})
	wantField(t, err, "config", false) // config_encode_error_test.go covers it
	if n := len(f.Srv.Requests()); n != before {
		t.Errorf("a malformed config reached the service (%d requests)", n-before)
	}
}

// A HostDetail (and the params that carry a Config) logged through slog's
// JSON handler shows no header value: the handler encoded the value with
// encoding/json, which wrote the config's bytes.
func TestHostDetailLogsNoHeaderValues(t *testing.T) {
	t.Parallel()
	cfg := hosts.MustConfig(sdktest.HostConfig(map[string]any{"connectionDefaults": map[string]any{
		"headers": map[string]any{"Authorization": "Bearer tok-AAA"}, "requestTimeout": 10000.0}}))
	var logs bytes.Buffer
	for _, h := range []slog.Handler{slog.NewJSONHandler(&logs, nil), slog.NewTextHandler(&logs, nil)} {
		slog.New(h).Info("host", "detail", hosts.HostDetail{ID: "hst_1", Name: "n", Config: cfg},
			"create", hosts.CreateParams{Name: "n", Config: cfg}, "update", &hosts.UpdateParams{Config: cfg})
	}
	if strings.Contains(logs.String(), "tok-AAA") || !strings.Contains(logs.String(), "hst_1") {
		t.Errorf("logs: %s", logs.String())
	}
}

// ModelID reads the key modelId exactly, as the service does.
func TestModelIDExactKey(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"modelid":"x"}`:               "",
		`{"MODELID":"x"}`:               "",
		`{"modelId":"a","ModelID":"b"}`: "a",
		`{"modelId":7}`:                 "",
		`{"modelId":"m"}`:               "m",
	} {
		if got := hosts.MustConfig(in).ModelID(); got != want {
			t.Errorf("ModelID(%s) = %q, want %q", in, got, want)
		}
	}
}

package ingest

import (
	"encoding/json"
	"strings"
	"testing"
)

// A result cut to fit keeps an empty error empty and marks a real one.
func TestCutResultKeepsErrorShape(t *testing.T) {
	t.Parallel()
	enc := newEncoder(redactor{}, nil, DefaultChunkBytes)
	big := map[string]any{"blob": strings.Repeat("x", 2*DefaultChunkBytes)}
	for _, tt := range []struct{ in, want string }{{"", ""}, {"boom", marker(4)}} {
		b, cut, err := enc.encode(&Result{CaseTitle: "c", Error: tt.in, AdvancedConfig: big})
		if err != nil || !cut {
			t.Fatalf("encode: cut %v, %v", cut, err)
		}
		var got struct {
			Error *string `json:"error"`
		}
		if err := json.Unmarshal(b, &got); err != nil {
			t.Fatal(err)
		}
		if e := ptrOr(got.Error); e != tt.want {
			t.Errorf("error %q after the cut, want %q", e, tt.want)
		}
	}
}

func ptrOr(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// Fitting a result drops widget HTML first, the largest first and no more
// than needed, keeping every snapshot's other fields and the result's
// metadata; the caller's snapshots are left as they were. Only when the
// result still does not fit are its texts cut.
func TestCutDropsWidgetHTMLFirst(t *testing.T) {
	t.Parallel()
	enc := newEncoder(redactor{}, nil, DefaultChunkBytes)
	big, small := strings.Repeat("b", DefaultChunkBytes), strings.Repeat("s", 1000)
	res := Result{CaseTitle: "c", Error: strings.Repeat("e", 5000), Metadata: map[string]any{"model": "m1"},
		AdvancedConfig:  map[string]any{"temperature": 0.2},
		WidgetSnapshots: []WidgetSnapshot{{ToolCallID: "a", WidgetHTML: small}, {ToolCallID: "b", WidgetHTML: big}}}
	b, cut, err := enc.encode(&res)
	if err != nil || !cut {
		t.Fatalf("cut %v, %v", cut, err)
	}
	var got Result
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.WidgetSnapshots) != 2 || got.WidgetSnapshots[0].WidgetHTML != small || got.WidgetSnapshots[1].ToolCallID != "b" ||
		got.WidgetSnapshots[1].WidgetHTML != widgetHTMLDropped(len(big)) {
		t.Errorf("snapshots: %.300s", b)
	}
	if got.Error != res.Error || got.Metadata["model"] != "m1" || got.AdvancedConfig["temperature"] != 0.2 {
		t.Errorf("more than the widget HTML was cut: %.300s", b)
	}
	if res.WidgetSnapshots[1].WidgetHTML != big {
		t.Error("the caller's snapshot was changed")
	}

	// Too large without its widget HTML too: the error is cut as before.
	res.Error = strings.Repeat("e", 2*DefaultChunkBytes)
	b, _, _ = enc.encode(&res)
	got = Result{}
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if len(b) > enc.limit || !strings.Contains(got.Error, "truncated by projectops") || len(got.WidgetSnapshots) != 2 ||
		got.Metadata["model"] != "m1" {
		t.Errorf("%d bytes: %.300s", len(b), b)
	}
}

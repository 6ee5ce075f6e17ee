package ingest

import (
	"encoding/json"
	"fmt"
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

// Dropping widget HTML to fit drops no more than needed, the largest
// first, and fits.
func TestCutWidgetDropIsNotQuadratic(t *testing.T) {
	t.Parallel()
	e := newEncoder(redactor{}, nil, DefaultChunkBytes)
	res := Result{CaseTitle: "w", Passed: true}
	for i := range 1000 {
		res.WidgetSnapshots = append(res.WidgetSnapshots, WidgetSnapshot{ToolCallID: fmt.Sprint(i), WidgetHTML: strings.Repeat("x", 4096+i)})
	}
	// Its cost is BenchmarkCutWidgetDrop's (a test asserts no time); one
	// marshal per snapshot made this case take seconds.
	b, cut, err := e.encode(&res)
	if err != nil || !cut {
		t.Fatalf("cut %v, %v", cut, err)
	}
	var got Result
	if err := json.Unmarshal(b, &got); err != nil || len(b) > e.limit || len(got.WidgetSnapshots) != 1000 {
		t.Fatalf("%d bytes, %d snapshots, %v", len(b), len(got.WidgetSnapshots), err)
	}
	// The smallest (first) ones keep their HTML, as many as fit (184, as
	// when one was dropped at a time).
	kept := 0
	for i, s := range got.WidgetSnapshots {
		switch {
		case s.WidgetHTML == res.WidgetSnapshots[i].WidgetHTML && kept == i:
			kept++
		case s.WidgetHTML != widgetHTMLDropped(4096+i):
			t.Errorf("snapshot %d: %.80s", i, s.WidgetHTML)
		}
	}
	if kept < 180 {
		t.Errorf("%d snapshots keep their HTML", kept)
	}
}

// When redaction makes the HTML's encoded size smaller than estimated,
// the rest of the widget HTML is dropped, and the result still fits.
func TestCutWidgetDropAfterRedaction(t *testing.T) {
	t.Parallel()
	e := newEncoder(redactor{}, nil, DefaultChunkBytes)
	res := Result{CaseTitle: "w", Passed: true, Error: strings.Repeat("e", 1000)}
	for i := range 40 {
		// Half of each page is a secret cookie value, which redaction removes.
		res.WidgetSnapshots = append(res.WidgetSnapshots, WidgetSnapshot{ToolCallID: fmt.Sprint(i),
			WidgetHTML: strings.Repeat("x", 30<<10) + "\n<p>Cookie: " + strings.Repeat("s", 30<<10) + "</p>"})
	}
	b, cut, err := e.encode(&res)
	var got Result
	if err != nil || !cut || json.Unmarshal(b, &got) != nil || len(b) > e.limit || len(got.WidgetSnapshots) != 40 || got.Error != res.Error {
		t.Fatalf("%d bytes, cut %v, %v: %.200s", len(b), cut, err, b)
	}
}

// BenchmarkCutWidgetDrop fits a result of 1000 widgets of 4 KiB into a
// chunk: dropping HTML one snapshot at a time, with a marshal each, took
// 4 s; largest first with one marshal takes milliseconds.
//
//	go test -run '^$' -bench CutWidgetDrop ./ingest
func BenchmarkCutWidgetDrop(b *testing.B) {
	e := newEncoder(redactor{}, nil, DefaultChunkBytes)
	base := make([]WidgetSnapshot, 1000)
	for i := range base {
		base[i] = WidgetSnapshot{ToolCallID: fmt.Sprint(i), WidgetHTML: strings.Repeat("x", 4096+i)}
	}
	for b.Loop() {
		res := Result{CaseTitle: "w", Passed: true, WidgetSnapshots: append([]WidgetSnapshot(nil), base...)}
		if _, cut, err := e.encode(&res); err != nil || !cut {
			b.Fatalf("cut %v, %v", cut, err)
		}
	}
}

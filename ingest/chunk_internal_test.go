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

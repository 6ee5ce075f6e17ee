package edge

import (
	"net/http/httptest"
	"strings"
	"testing"
)

func TestRejectBody(t *testing.T) {
	t.Parallel()
	tests := []struct {
		body, wantField string
		wantErr         bool
	}{
		{"", "", false},
		{"{}", "", false},
		{"  {}  ", "", false},
		{`{"force":true}`, "force", true},
		{`[]`, "", true},
		{`{`, "", true},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/x", strings.NewReader(tt.body))
		herr := RejectBody(r)
		if (herr != nil) != tt.wantErr {
			t.Errorf("body %q: err %v, want error %v", tt.body, herr, tt.wantErr)
			continue
		}
		if herr == nil {
			continue
		}
		if herr.Status != 400 || herr.Body.Code != "VALIDATION_ERROR" {
			t.Errorf("body %q: %d %s", tt.body, herr.Status, herr.Body.Code)
		}
		if got, _ := herr.Body.Details["field"].(string); got != tt.wantField {
			t.Errorf("body %q: field %q, want %q", tt.body, got, tt.wantField)
		}
	}
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	big := `{"name":"` + strings.Repeat("x", MaxBodyBytes) + `"}`
	r := httptest.NewRequest("POST", "/x", strings.NewReader(big))
	var dst struct{ Name string }
	if _, herr := DecodeBody(r, &dst); herr == nil || herr.Status != 400 {
		t.Errorf("oversized body: %v", herr)
	}
}

func TestReadBody(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name     string
		body     string
		declared int64
		wantLen  int
	}{
		{"declared", `{"a":1}`, 7, 7},
		{"undeclared", `{"a":1}`, -1, 7},
		{"declared over the limit", strings.Repeat("x", 20), 20, 11},
		{"undeclared over the limit", strings.Repeat("x", 20), -1, 11},
	} {
		r := httptest.NewRequest("POST", "/x", strings.NewReader(tt.body))
		r.ContentLength = tt.declared
		b, err := ReadBody(r, 10)
		if err != nil || len(b) != tt.wantLen {
			t.Errorf("%s: %d bytes, %v; want %d", tt.name, len(b), err, tt.wantLen)
		}
	}
}

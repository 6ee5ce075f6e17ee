package projectopstest

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
		herr := rejectBody(r)
		if (herr != nil) != tt.wantErr {
			t.Errorf("body %q: err %v, want error %v", tt.body, herr, tt.wantErr)
			continue
		}
		if herr == nil {
			continue
		}
		if herr.status != 400 || herr.body.Code != "VALIDATION_ERROR" {
			t.Errorf("body %q: %d %s", tt.body, herr.status, herr.body.Code)
		}
		if got, _ := herr.body.Details["field"].(string); got != tt.wantField {
			t.Errorf("body %q: field %q, want %q", tt.body, got, tt.wantField)
		}
	}
}

func TestBodyTooLarge(t *testing.T) {
	t.Parallel()
	big := `{"name":"` + strings.Repeat("x", maxBodyBytes) + `"}`
	r := httptest.NewRequest("POST", "/x", strings.NewReader(big))
	var dst struct{ Name string }
	if _, herr := decodeBody(r, &dst); herr == nil || herr.status != 400 {
		t.Errorf("oversized body: %v", herr)
	}
}

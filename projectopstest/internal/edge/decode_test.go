package edge

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/evals"
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

// TestBindKnownDropsCaseDifferingKeys: bindKnown hands the decoder only
// the keys the service's schemas read, which they read exactly: a key
// differing only in case from a field's name is dropped at every depth,
// so it neither fails the bind for its type nor overrides the field.
func TestBindKnownDropsCaseDifferingKeys(t *testing.T) {
	data := []byte(`{"name":"s","NAME":"z","tests":[{"title":"t","Title":1,"steps":[
 {"id":"c","kind":"assert","assertion":{"type":"responseContains","needle":"x","NEEDLE":7,"Needle":"y","other":1}}]}]}`)
	var obj map[string]any
	if err := json.Unmarshal(data, &obj); err != nil {
		t.Fatal(err)
	}
	var dst evals.CreateSuiteParams
	if herr := bindKnown(data, obj, &dst); herr != nil {
		t.Fatalf("bindKnown refused: %v", herr)
	}
	if dst.Name != "s" || len(dst.Tests) != 1 || dst.Tests[0].Title != "t" || len(dst.Tests[0].Steps) != 1 {
		t.Fatalf("bound %+v", dst)
	}
	a := dst.Tests[0].Steps[0].Assertion
	if a == nil || a.Needle != "x" {
		t.Fatalf("assertion %+v: a case-differing key set the needle", a)
	}
	if _, kept := a.Extra["other"]; !kept {
		t.Errorf("assertion extra %v lost a key no field names", a.Extra)
	}
}

// TestStrictDecodeExactKeysAtDepth: a route outside the contract refuses a
// key that matches a field only through case folding at any depth, naming
// it by its path, as it refuses one at the top level, whatever the type of
// its value.
func TestStrictDecodeExactKeysAtDepth(t *testing.T) {
	type inner struct {
		Status int `json:"status"`
	}
	type body struct {
		Name  string  `json:"name"`
		Inner inner   `json:"inner"`
		List  []inner `json:"list"`
	}
	for data, want := range map[string]string{
		`{"NAME":"a"}`:                         "NAME",
		`{"inner":{"Status":1}}`:               "inner.Status",
		`{"inner":{"status":1,"STATUS":2}}`:    "inner.STATUS",
		`{"list":[{"status":1},{"sTatus":2}]}`: "list[1].sTatus",
		// Whatever its value: the field's type error must not win.
		`{"inner":{"status":1,"Status":"x"}}`: "inner.Status",
		`{"Name":7}`:                          "Name",
	} {
		var obj map[string]any
		if err := json.Unmarshal([]byte(data), &obj); err != nil {
			t.Fatal(err)
		}
		var dst body
		herr := strictDecode([]byte(data), obj, &dst)
		if herr == nil || herr.Body.Message != `Unknown field "`+want+`"` {
			t.Errorf("%s: %v, want Unknown field %q", data, herr, want)
		}
	}
	var dst body
	data := `{"name":"a","inner":{"status":1},"list":[{"status":2}]}`
	var obj map[string]any
	if err := json.Unmarshal([]byte(data), &obj); err != nil {
		t.Fatal(err)
	}
	if herr := strictDecode([]byte(data), obj, &dst); herr != nil || dst.Inner.Status != 1 || dst.List[0].Status != 2 {
		t.Fatalf("exact keys: %v, %+v", herr, dst)
	}
}

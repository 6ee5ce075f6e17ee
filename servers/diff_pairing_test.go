package servers

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/projectops/projectops-go/option"
)

const (
	pairReq  = `{"name":"a","inputSchema":{"type":"object"},"execution":{"taskSupport":"required"}}`
	pairForb = `{"name":"a","inputSchema":{"type":"object"},"execution":{"taskSupport":"forbidden"}}`
)

func pairDoc(tools string) string {
	return `{"serverId":"s","tools":[` + tools + `],"resources":[],"prompts":[]}`
}

func pairParse(t *testing.T, tools string) *ExportSnapshot {
	t.Helper()
	s, err := ParseSnapshot([]byte(pairDoc(tools)))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Two tools of one name that decode alike (they differ only in execution,
// which go-sdk's types do not model) cannot be told apart once one is
// filtered out in Go (nor in general: such twins are always): the one left
// is compared by its typed fields, never
// with its twin's served form (which gave a false change, and hid a real
// one). A change only in execution is then not seen, as documented.
func TestDiffDuplicatePairing(t *testing.T) {
	t.Parallel()
	for _, want := range []string{pairForb, pairReq} {
		old := pairParse(t, pairReq+","+pairForb)
		old.Tools = old.Tools[1:]
		if d := Diff(old, pairParse(t, want)); !d.Equal() {
			t.Errorf("against %s: a change from the twin's served form:\n%v", want, d)
		}
	}
}

// The same through Service.Export.
func TestExportDuplicatePairing(t *testing.T) {
	t.Parallel()
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(pairDoc(pairReq + "," + pairForb)))
	}))
	defer hs.Close()
	s, err := NewService(option.WithBaseURL(hs.URL), option.WithAPIKey("sk_test"), option.WithoutEnvironment())
	if err != nil {
		t.Fatal(err)
	}
	old, err := s.Export(t.Context(), "prj_1", "srv_1")
	if err != nil || len(old.Tools) != 2 {
		t.Fatalf("Export = %+v, %v", old, err)
	}
	old.Tools = old.Tools[1:]
	if d := Diff(old, pairParse(t, pairForb)); !d.Equal() {
		t.Errorf("exported, filtered:\n%v", d)
	}
}

const pairChange = "~ tool \"a\"\n    execution.taskSupport: \"forbidden\" → \"required\"\n"

// An item (Raw set by hand, or the item copied) is paired by its encoding
// only when every served item of that encoding
// is alike as served; else it is compared by its typed fields, never with
// another item's served form.
func TestDiffUnrecordedPairing(t *testing.T) {
	t.Parallel()
	byHand := func(tools string) *ExportSnapshot {
		var s ExportSnapshot
		if err := json.Unmarshal([]byte(pairDoc(tools)), &s); err != nil {
			t.Fatal(err)
		}
		s.Raw = json.RawMessage(pairDoc(tools))
		return &s
	}
	old := byHand(pairReq + "," + pairForb)
	old.Tools = old.Tools[1:]
	if d := Diff(old, pairParse(t, pairForb)); !d.Equal() {
		t.Errorf("ambiguous, by hand:\n%v", d)
	}
	// Alike as served: paired, so execution is compared.
	old = byHand(pairForb + "," + pairForb)
	old.Tools = old.Tools[1:]
	if d := Diff(old, pairParse(t, pairReq)); d.String() != pairChange {
		t.Errorf("alike, by hand:\n%v", d)
	}
	copied := pairParse(t, pairForb)
	tool := *copied.Tools[0]
	copied.Tools[0] = &tool
	if d := Diff(copied, pairParse(t, pairReq)); d.String() != pairChange {
		t.Errorf("a copied item:\n%v", d)
	}
}

// Snapshots stay comparable with go-cmp and reflect.DeepEqual: no
// unexported state (cmp.Diff panics on it).
func TestSnapshotComparable(t *testing.T) {
	t.Parallel()
	a, b := pairParse(t, pairReq), pairParse(t, pairReq)
	if d := cmp.Diff(a, b); d != "" {
		t.Errorf("two parses of one document differ:\n%s", d)
	}
	if !reflect.DeepEqual(a, b) {
		t.Error("two parses of one document are not DeepEqual")
	}
}

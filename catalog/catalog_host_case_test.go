package catalog_test

import (
	"encoding/json"
	"testing"

	"github.com/projectops/projectops-go/catalog"
)

// encoding/json matches keys without regard to case, so "ModelId" fills
// ModelID; it is then no Extra member (the split was by exact key, so it
// was kept in Extra too and re-encoded next to "modelId").
func TestCatalogHostCaseVariantKeyIsTheField(t *testing.T) {
	var h catalog.CatalogHost
	if err := json.Unmarshal([]byte(`{"id":"x","ModelId":"m"}`), &h); err != nil {
		t.Fatal(err)
	}
	if h.ModelID != "m" {
		t.Fatalf("ModelID = %q", h.ModelID)
	}
	if _, ok := h.Extra["ModelId"]; ok {
		t.Errorf("a member decoded into ModelID is also kept in Extra: %v", h.Extra)
	}
	out, _ := json.Marshal(h)
	var m map[string]any
	_ = json.Unmarshal(out, &m)
	if _, ok := m["ModelId"]; ok {
		t.Errorf("re-encoded with both modelId and ModelId: %s", out)
	}
}

package edge

import "testing"

func TestCursors(t *testing.T) {
	t.Parallel()
	c := EncodeOffsetCursor("hosts", 40)
	if n, herr := DecodeOffsetCursor("hosts", c, "cursor"); herr != nil || n != 40 {
		t.Errorf("round trip = %d, %v", n, herr)
	}
	if _, herr := DecodeOffsetCursor("servers", c, "cursor"); herr == nil || herr.Body.Details["field"] != "cursor" {
		t.Errorf("another listing's cursor = %v, want VALIDATION_ERROR naming cursor", herr)
	}
	if _, herr := DecodeCursor("hosts", "%%%", "cursor"); herr == nil || herr.Status != 400 {
		t.Errorf("garbage cursor = %v", herr)
	}
	if n, herr := ParseLimit("", "limit", 20, 100); herr != nil || n != 20 {
		t.Errorf("default limit = %d, %v", n, herr)
	}
	for _, raw := range []string{"0", "101", "x"} {
		if _, herr := ParseLimit(raw, "limit", 20, 100); herr == nil {
			t.Errorf("ParseLimit(%q) accepted", raw)
		}
	}
}

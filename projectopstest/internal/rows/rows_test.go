package rows

import (
	"encoding/json"
	"slices"
	"testing"
	"time"
)

func TestEncodeInsertAt(t *testing.T) {
	body := []byte(`{"runId":"run_1","results":[{"caseTitle":"a","passed":true,"externalIterationId":"x"},` +
		`{"caseTitle":"b","passed":false},{"caseTitle":"a again","passed":true,"externalIterationId":"x"}],"z":1}`)
	var obj struct{ Results []json.RawMessage }
	if err := json.Unmarshal(body, &obj); err != nil {
		t.Fatal(err)
	}
	raws := make([][]byte, len(obj.Results))
	results := make([]any, len(obj.Results))
	for i, r := range obj.Results {
		raws[i] = r
		if err := json.Unmarshal(r, &results[i]); err != nil {
			t.Fatal(err)
		}
	}
	rs := Encode(raws, results)
	if len(rs) != 3 || string(rs[1].Raw) != `{"caseTitle":"b","passed":false}` || rs[0].ExtID != "x" || !rs[0].Passed {
		t.Fatalf("Encode = %+v", rs)
	}
	s := NewStore(false)
	at := time.UnixMilli(1_700_000_000_000)
	inserted, passed, skipped := s.Insert(rs, at)
	if inserted != 2 || passed != 1 || skipped != 1 || s.Len() != 2 {
		t.Fatalf("Insert = %d %d %d, Len %d", inserted, passed, skipped, s.Len())
	}
	// A second append: a repeat of an earlier id is skipped too.
	if ins, _, sk := s.Insert(rs[:2], at.Add(time.Second)); ins != 1 || sk != 1 {
		t.Fatalf("second Insert = %d inserted, %d skipped", ins, sk)
	}
	raw, received, ok := s.At(2)
	if string(raw) != `{"caseTitle":"b","passed":false}` || !received.Equal(at.Add(time.Second)) || ok {
		t.Errorf("At(2) = %s %v %v", raw, received, ok)
	}
	if raw, _, ok := s.At(0); string(raw) != string(rs[0].Raw) || !ok {
		t.Errorf("At(0) = %s %v", raw, ok)
	}

	d := NewStore(true)
	if ins, p, sk := d.Insert(rs, at); ins != 3 || p != 2 || sk != 0 || d.Len() != 0 {
		t.Errorf("discard: %d %d %d, Len %d", ins, p, sk, d.Len())
	}
}

// InsertStored marks the rows the store now holds: not a repeat it
// skipped, and none when it discards rows.
func TestInsertStored(t *testing.T) {
	t.Parallel()
	rs := []Row{{ExtID: "x", Raw: []byte(`{}`)}, {Raw: []byte(`{}`)}, {ExtID: "x", Raw: []byte(`{}`)}}
	at := time.UnixMilli(1_700_000_000_000)
	stored := make([]bool, len(rs))
	NewStore(false).InsertStored(rs, at, stored)
	if want := []bool{true, true, false}; !slices.Equal(stored, want) {
		t.Errorf("stored = %v, want %v", stored, want)
	}
	stored = make([]bool, len(rs))
	NewStore(true).InsertStored(rs, at, stored)
	if want := []bool{false, false, false}; !slices.Equal(stored, want) {
		t.Errorf("discard: stored = %v, want %v", stored, want)
	}
}

// Ids whose hashes share a first half are told apart by the second.
func TestAddCollision(t *testing.T) {
	t.Parallel()
	s := NewStore(false)
	for _, tc := range []struct {
		h1, h2 uint64
		want   bool
	}{{1, 10, true}, {1, 10, false}, {1, 11, true}, {1, 11, false}, {1, 12, true}, {2, 10, true}, {1, 10, false}} {
		if got := s.add(tc.h1, tc.h2); got != tc.want {
			t.Errorf("add(%d, %d) = %v, want %v", tc.h1, tc.h2, got, tc.want)
		}
	}
}

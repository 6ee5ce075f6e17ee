package tunnelwire

import (
	"bytes"
	"errors"
	"net/http"
	"strings"
	"testing"
)

// A group holds the frames Encode, EncodeHead and EncodeEnd make, each
// behind its length, and a head too large leaves it as it was.
func TestGroupFrames(t *testing.T) {
	t.Parallel()
	h := &Head{Method: "POST", URI: "/mcp", Header: http.Header{"A": {"b"}}}
	head, err := EncodeHead(Request, 3, h)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]byte{head, Encode(Data, 3, []byte("body")), EncodeEnd(3, errors.New("cut"))}
	for _, g := range []Group{nil, make(Group, 0, 64), Group(nil).Append(Cancel, 9, nil).Reset()} {
		g, err := g.AppendHead(Request, 3, h)
		if err != nil {
			t.Fatal(err)
		}
		g = g.Append(Data, 3, []byte("body")).AppendEnd(3, errors.New("cut"))
		var got [][]byte
		g.entries(func(e []byte) { got = append(got, e[4:]) })
		if len(got) != len(want) {
			t.Fatalf("%d frames, want %d", len(got), len(want))
		}
		for i := range want {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("frame %d = %q, want %q", i, got[i], want[i])
			}
		}
		n := 0
		if err := SplitBatch(g[HeaderLen:], func(Frame) error { n++; return nil }); err != nil || n != 3 {
			t.Errorf("the group is not a batch payload: %d frames, %v", n, err)
		}
		before := len(g)
		g2, err := g.AppendHead(Response, 3, &Head{Header: http.Header{"X": {strings.Repeat("x", MaxHead)}}})
		if err == nil || len(g2) != before {
			t.Errorf("an oversized head: %v, group %d bytes, was %d", err, len(g2), before)
		}
	}
	if !Group(nil).Empty() || !Group(nil).Append(Cancel, 9, nil).Reset().Empty() || Group(nil).AppendEnd(1, nil).Empty() {
		t.Error("Empty")
	}
}

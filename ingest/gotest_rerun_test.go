package ingest_test

import (
	"strings"
	"testing"

	"github.com/projectops/projectops-go/ingest"
)

// A package run again after its end event in the same stream (gotestsum
// --rerun-fails) gets ids of its own, so the service stores the rerun's
// results rather than skipping them as the first run's; the first run's
// ids are unchanged.
func TestReadGoTestRerunGetsItsOwnIDs(t *testing.T) {
	t.Parallel()
	run := func(verdict string) string {
		return `{"Action":"start","Package":"example.com/p"}
{"Action":"run","Package":"example.com/p","Test":"TestFlaky"}
{"Action":"` + verdict + `","Package":"example.com/p","Test":"TestFlaky"}
{"Action":"` + verdict + `","Package":"example.com/p"}
`
	}
	var c collector
	if _, err := ingest.ReadGoTest(t.Context(), strings.NewReader(run("fail")+run("pass")+run("pass")), &c, ingest.GoTestOptions{}); err != nil {
		t.Fatal(err)
	}
	if len(c.got) != 3 {
		t.Fatalf("%d results, want 3", len(c.got))
	}
	if id := c.got[0].ExternalIterationID; id != ingest.IterationID(1, "example.com/p", "TestFlaky") {
		t.Errorf("first run's id %s changed", id)
	}
	seen := map[string]bool{}
	for _, r := range c.got {
		if seen[r.ExternalIterationID] {
			t.Errorf("id %s repeated: %+v", r.ExternalIterationID, c.got)
		}
		seen[r.ExternalIterationID] = true
	}
}

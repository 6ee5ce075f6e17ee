package hosts

import (
	"fmt"
	"strings"
	"testing"
)

// bigConfig is a config of n members, each holding an object, with the
// read-back-only id among them when withID.
func bigConfig(n int, withID bool) Config {
	var b strings.Builder
	b.WriteString(`{"name":"host"`)
	for i := range n {
		fmt.Fprintf(&b, `,"server%d":{"url":"https://mcp.example/%d","timeout":1.50,"tools":["a","b"]}`, i, i)
		if withID && i == n/2 {
			b.WriteString(`,"id":"cfg_1"`)
		}
	}
	b.WriteString("}")
	return Config(b.String())
}

// input neither copies a config it leaves as is nor allocates per member
// (it once cloned every member name and rebuilt every config: 40k
// allocations for a 940 KB one). The bound is generous: what it rules out
// grows with the member count, and the configs have 20,000 members.
func TestInputAllocatesPerConfigNotPerMember(t *testing.T) {
	const members, bound = 20000, 64
	for _, withID := range []bool{false, true} {
		c := bigConfig(members, withID)
		var got Config
		allocs := testing.AllocsPerRun(5, func() { got = c.input() })
		if allocs > bound {
			t.Errorf("withID %v: %.0f allocations per call, want at most %d", withID, allocs, bound)
		}
		same := len(got) == len(c) && &got[0] == &c[0]
		if same == withID {
			t.Errorf("withID %v: input returned the config itself: %v, want %v", withID, same, !withID)
		}
	}
}

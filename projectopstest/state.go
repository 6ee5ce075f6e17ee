package projectopstest

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"time"
)

// state is the double's whole store, guarded by Server.mu: every method of
// state (and of its sub-stores) runs with Server.mu held.
type state struct {
	ids      map[string]bool // every id in use, across kinds
	next     map[string]int  // next number per id prefix
	ord      int
	orgs     map[string]*orgRec
	users    map[string]*userRec
	projects map[string]*projectRec
	keys     map[string]*apiKeyRec
	// keyHashes are the keys' hashes, for Server.shownPath's lookups: a
	// path is masked, not authenticated, so no constant-time loop.
	keyHashes map[[32]byte]bool
	servers   map[string]*serverRec
	hosts     map[string]*hostRec
	chatbox   map[string]*chatboxRec
	sessions  map[string]*chatSessionRec
	suites    map[string]*evalSuiteRec
	ingest    ingestStore // eval runs and artifacts received through eval-ingest
	evals     evalStore   // eval runs (records_evals.go)
	env       envState    // computer environments, builds, computers (env_records.go)
	tun       tunnelState // records_tunnels.go
	// keyLens holds the lengths of keys' parts after "sk_". Unlike the rest
	// of state it is also read without Server.mu (Server.shownPath); it is
	// written under it (addKey).
	keyLens keyLengths
	// now is the server's clock (WithClock), for the timestamps the store
	// writes.
	now func() time.Time
}

func newState() state {
	return state{
		ids: map[string]bool{}, next: map[string]int{},
		orgs: map[string]*orgRec{}, users: map[string]*userRec{},
		projects: map[string]*projectRec{}, keys: map[string]*apiKeyRec{}, keyHashes: map[[32]byte]bool{},
		servers: map[string]*serverRec{}, hosts: map[string]*hostRec{},
		chatbox: map[string]*chatboxRec{}, sessions: map[string]*chatSessionRec{},
		suites: map[string]*evalSuiteRec{},
		evals:  evalStore{runs: map[string]*evalRunRec{}, idem: map[string]string{}, suiteIdem: map[string]string{}},
	}
}

// newID claims an id: want when given (it must be unused), else the next
// free "<prefix>_<n>", so generated ids are deterministic (org_1, prj_2, ...).
func (st *state) newID(prefix, want string) (string, error) {
	if want != "" {
		if st.ids[want] {
			return "", fmt.Errorf("id %q already exists", want)
		}
		st.ids[want] = true
		return want, nil
	}
	for {
		st.next[prefix]++
		id := prefix + "_" + strconv.Itoa(st.next[prefix])
		if !st.ids[id] {
			st.ids[id] = true
			return id, nil
		}
	}
}

// nextOrd returns the next creation-order number.
func (st *state) nextOrd() int {
	st.ord++
	return st.ord
}

// sortedByOrd returns the values of m for which keep is true, in creation order.
func sortedByOrd[T any](m map[string]*T, ord func(*T) int, keep func(*T) bool) []*T {
	out := make([]*T, 0, len(m))
	for _, v := range m {
		if keep == nil || keep(v) {
			out = append(out, v)
		}
	}
	slices.SortFunc(out, func(a, b *T) int { return cmp.Compare(ord(a), ord(b)) })
	return out
}

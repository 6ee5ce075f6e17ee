package servers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Change kinds and operations of a SnapshotDiff.
const (
	KindTool     = "tool"
	KindResource = "resource"
	KindPrompt   = "prompt"

	OpAdded   = "added"
	OpRemoved = "removed"
	OpChanged = "changed"
)

// Change is one difference between two snapshots.
type Change struct {
	// Kind is KindTool, KindResource or KindPrompt.
	Kind string `json:"kind"`
	// Name is the tool or prompt name, or the resource URI.
	Name string `json:"name"`
	// Op is OpAdded, OpRemoved or OpChanged.
	Op string `json:"op"`
	// Fields lists, for a changed item, each differing field (schema
	// changes included) with its old and new value, sorted by path.
	Fields []FieldChange `json:"fields,omitempty"`
}

// FieldChange is one differing field of a changed item. Path is dotted
// (inputSchema.properties.query.type, arguments[1].required); Old and New
// are JSON, empty when the field is absent on that side.
type FieldChange struct {
	Path string `json:"path"`
	Old  string `json:"old,omitempty"`
	New  string `json:"new,omitempty"`
}

// SnapshotDiff is the difference between two export snapshots.
type SnapshotDiff struct {
	// Changes are ordered tools, resources, prompts, each by name.
	Changes []Change `json:"changes"`
}

// Equal reports whether the snapshots define the same primitives.
func (d *SnapshotDiff) Equal() bool { return len(d.Changes) == 0 }

// String renders the diff for people and CI logs, one line per item
// ("+ tool x", "- prompt y", "~ resource z") and one indented line per
// changed field. The output is stable: the same snapshots always give the
// same text. Equal snapshots render as "".
func (d *SnapshotDiff) String() string {
	var b strings.Builder
	sign := map[string]string{OpAdded: "+", OpRemoved: "-", OpChanged: "~"}
	for _, c := range d.Changes {
		fmt.Fprintf(&b, "%s %s %s\n", sign[c.Op], c.Kind, strconv.Quote(c.Name))
		for _, f := range c.Fields {
			fmt.Fprintf(&b, "    %s: %s → %s\n", f.Path, orAbsent(f.Old), orAbsent(f.New))
		}
	}
	return b.String()
}

func orAbsent(s string) string {
	if s == "" {
		return "(absent)"
	}
	return s
}

// Diff compares two export snapshots of a server: tools by name, resources
// by URI, prompts by name, each item as its JSON form, numbers kept as
// written and compared by value (1.0 is 1; 9007199254740993 is not
// 9007199254740992). ExportedAt and ServerID are ignored, so snapshots
// taken at different times (or of the same server saved under different
// ids) compare by content. A nil snapshot counts as empty.
//
// When both snapshots carry Raw (both were decoded: from Service.Export or
// a stored file) and their lists still match it, items are compared as
// served, so a field go-sdk's types do not model (a tool's
// execution.taskSupport) is compared too. Otherwise both sides are
// compared by their typed fields, so it does not matter whether an item
// was built in Go or decoded; a decoded schema's numbers are then
// float64s.
func Diff(old, new *ExportSnapshot) *SnapshotDiff {
	if old == nil {
		old = &ExportSnapshot{}
	}
	if new == nil {
		new = &ExportSnapshot{}
	}
	d := &SnapshotDiff{}
	if o, ok := served(old); ok {
		if n, ok := served(new); ok {
			d.Changes = append(d.Changes, diffKind(KindTool, keyedServed(o.Tools, "name"), keyedServed(n.Tools, "name"))...)
			d.Changes = append(d.Changes, diffKind(KindResource, keyedServed(o.Resources, "uri"), keyedServed(n.Resources, "uri"))...)
			d.Changes = append(d.Changes, diffKind(KindPrompt, keyedServed(o.Prompts, "name"), keyedServed(n.Prompts, "name"))...)
			return d
		}
	}
	d.Changes = append(d.Changes, diffKind(KindTool, keyed(old.Tools, toolKey), keyed(new.Tools, toolKey))...)
	d.Changes = append(d.Changes, diffKind(KindResource, keyed(old.Resources, resourceKey), keyed(new.Resources, resourceKey))...)
	d.Changes = append(d.Changes, diffKind(KindPrompt, keyed(old.Prompts, promptKey), keyed(new.Prompts, promptKey))...)
	return d
}

// servedLists are a snapshot's lists as served, each item decoded into
// maps, slices and scalars with numbers kept as written.
type servedLists struct {
	Tools     []any `json:"tools"`
	Resources []any `json:"resources"`
	Prompts   []any `json:"prompts"`
}

// served returns s's lists as served, or false when s has no Raw or its
// typed lists no longer match Raw (the snapshot was edited in Go).
func served(s *ExportSnapshot) (*servedLists, bool) {
	if len(s.Raw) == 0 {
		return nil, false
	}
	var typed struct {
		Tools     []*mcp.Tool     `json:"tools"`
		Resources []*mcp.Resource `json:"resources"`
		Prompts   []*mcp.Prompt   `json:"prompts"`
	}
	if json.Unmarshal(s.Raw, &typed) != nil || !sameJSON(typed.Tools, s.Tools) ||
		!sameJSON(typed.Resources, s.Resources) || !sameJSON(typed.Prompts, s.Prompts) {
		return nil, false
	}
	var l servedLists
	dec := json.NewDecoder(bytes.NewReader(s.Raw))
	dec.UseNumber()
	if dec.Decode(&l) != nil {
		return nil, false
	}
	return &l, true
}

// sameJSON reports whether a and b encode alike.
func sameJSON(a, b any) bool {
	x, err := json.Marshal(a)
	if err != nil {
		return false
	}
	y, err := json.Marshal(b)
	return err == nil && bytes.Equal(x, y)
}

// keyed indexes items by key as their generic JSON form.
func keyed[T any](items []T, key func(T) string) map[string]any {
	return index(len(items), func(i int) string { return key(items[i]) }, func(i int) any { return generic(items[i]) })
}

// keyedServed indexes served items by their field (name or uri); an item
// that is not an object, or lacks the field, has the key "" as a nil typed
// item does.
func keyedServed(items []any, field string) map[string]any {
	return index(len(items), func(i int) string {
		m, _ := items[i].(map[string]any)
		k, _ := m[field].(string)
		return k
	}, func(i int) any { return items[i] })
}

// index maps n items by key to their value. A key met again (a server
// listing two tools of one name) is indexed as "name #2" and so on, so no
// item hides another.
func index(n int, key func(int) string, value func(int) any) map[string]any {
	out := make(map[string]any, n)
	seen := map[string]int{}
	for i := range n {
		k := key(i)
		if seen[k]++; seen[k] > 1 {
			k += " #" + strconv.Itoa(seen[k])
		}
		out[k] = value(i)
	}
	return out
}

// generic is v's JSON form decoded into maps, slices and scalars, numbers
// kept as written (a float64 would make 9007199254740993 equal ...992).
func generic(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("unencodable: %v", err)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

// sameNumber compares two JSON numbers by value: 1, 1.0 and 1e0 are one
// number, 9007199254740993 and 9007199254740992 two.
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, okx := new(big.Rat).SetString(string(a))
	y, oky := new(big.Rat).SetString(string(b))
	return okx && oky && x.Cmp(y) == 0
}

func diffKind(kind string, old, new map[string]any) []Change {
	names := make([]string, 0, len(old)+len(new))
	for k := range old {
		names = append(names, k)
	}
	for k := range new {
		if _, ok := old[k]; !ok {
			names = append(names, k)
		}
	}
	slices.Sort(names)
	var out []Change
	for _, name := range names {
		o, inOld := old[name]
		n, inNew := new[name]
		switch {
		case !inOld:
			out = append(out, Change{Kind: kind, Name: name, Op: OpAdded})
		case !inNew:
			out = append(out, Change{Kind: kind, Name: name, Op: OpRemoved})
		default:
			var fields []FieldChange
			diffValue(&fields, "", o, n)
			if len(fields) > 0 {
				slices.SortFunc(fields, func(a, b FieldChange) int { return strings.Compare(a.Path, b.Path) })
				out = append(out, Change{Kind: kind, Name: name, Op: OpChanged, Fields: fields})
			}
		}
	}
	return out
}

// diffValue appends the differing leaves of two JSON values (maps, slices
// and scalars, as encoding/json decodes them) below path: a key or element
// on one side only is one change, maps and slices are walked, and any
// other difference is a change of the whole value.
func diffValue(out *[]FieldChange, path string, o, n any) {
	switch ov := o.(type) {
	case map[string]any:
		nv, ok := n.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(ov)+len(nv))
		for k := range ov {
			keys = append(keys, k)
		}
		for k := range nv {
			if _, dup := ov[k]; !dup {
				keys = append(keys, k)
			}
		}
		for _, k := range keys {
			x, inO := ov[k]
			y, inN := nv[k]
			at := k
			if path != "" {
				at = path + "." + k
			}
			switch {
			case !inO:
				*out = append(*out, FieldChange{Path: at, New: jsonOf(y)})
			case !inN:
				*out = append(*out, FieldChange{Path: at, Old: jsonOf(x)})
			default:
				diffValue(out, at, x, y)
			}
		}
		return
	case []any:
		nv, ok := n.([]any)
		if !ok {
			break
		}
		for i := range max(len(ov), len(nv)) {
			at := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(ov):
				*out = append(*out, FieldChange{Path: at, New: jsonOf(nv[i])})
			case i >= len(nv):
				*out = append(*out, FieldChange{Path: at, Old: jsonOf(ov[i])})
			default:
				diffValue(out, at, ov[i], nv[i])
			}
		}
		return
	}
	if on, ok := o.(json.Number); ok {
		if nn, ok := n.(json.Number); ok && sameNumber(on, nn) {
			return
		}
	}
	if !reflect.DeepEqual(o, n) {
		if path == "" {
			path = "(value)"
		}
		*out = append(*out, FieldChange{Path: path, Old: jsonOf(o), New: jsonOf(n)})
	}
}

func jsonOf(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

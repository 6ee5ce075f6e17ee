package servers

import (
	"bytes"
	"encoding/json"
	"fmt"
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
// A snapshot from Service.Export or ParseSnapshot keeps the document as
// served in Raw. Each typed item that still matches an item of Raw (its
// typed decoding encodes alike) stands for the first unused one that
// decodes alike, if all that do are alike as served. When
// the items of one name on both sides stand for served items, they are
// compared as served, so a field go-sdk's types do not model (a vendor
// field of a prompt argument) is compared too, while a null member or an empty
// _meta counts as absent, as it does to those types (a null in a _meta or
// in a tool's inputSchema or outputSchema is kept). Otherwise (an item
// built, edited or added in Go) both are compared by their typed fields,
// so it does not matter whether an item was built in Go or decoded; a
// decoded schema's numbers are then float64s. Reordering or filtering a
// decoded snapshot's lists in Go keeps the other items compared as
// served, except items that decode alike but differ as served (two tools
// of one name whose schemas differ only in a number float64 cannot tell
// apart): which one such an item stands
// for is unknown, so it is always compared by its typed fields. An edit in
// Go that float64 cannot tell from Raw (a maximum of 9007199254740992 set
// where Raw has 9007199254740993) still matches the served item, so Diff
// compares Raw's number and does not see the edit.
func Diff(old, new *ExportSnapshot) *SnapshotDiff {
	if old == nil {
		old = &ExportSnapshot{}
	}
	if new == nil {
		new = &ExportSnapshot{}
	}
	o, n := servedOf(old), servedOf(new)
	d := &SnapshotDiff{}
	d.Changes = append(d.Changes, diffKind(KindTool, keyed(old.Tools, toolKey, o.Tools), keyed(new.Tools, toolKey, n.Tools))...)
	d.Changes = append(d.Changes, diffKind(KindResource, keyed(old.Resources, resourceKey, o.Resources), keyed(new.Resources, resourceKey, n.Resources))...)
	d.Changes = append(d.Changes, diffKind(KindPrompt, keyed(old.Prompts, promptKey, o.Prompts), keyed(new.Prompts, promptKey, n.Prompts))...)
	return d
}

// servedLists are a snapshot's lists as served; each is empty when the
// snapshot has no Raw or Raw does not decode.
type servedLists struct {
	Tools     *servedList[mcp.Tool]
	Resources *servedList[mcp.Resource]
	Prompts   *servedList[mcp.Prompt]
}

// servedList is one list of Raw: each item as served (decoded into maps,
// slices and scalars, numbers as written), the encoding of its decoding
// into go-sdk's type T ("" if it has none), whether a typed item has been
// paired with it, and its indices by encoding, in order.
type servedList[T any] struct {
	items []any
	encs  []string
	used  []bool
	byEnc map[string][]int
	next  map[string]int  // by encoding, where in byEnc an unused item may be
	same  map[string]bool // by encoding, whether its items are alike as served
}

// servedOf decodes s.Raw's lists.
func servedOf(s *ExportSnapshot) servedLists {
	var raw struct {
		Tools     []json.RawMessage `json:"tools"`
		Resources []json.RawMessage `json:"resources"`
		Prompts   []json.RawMessage `json:"prompts"`
	}
	if len(s.Raw) == 0 || json.Unmarshal(s.Raw, &raw) != nil {
		return servedLists{}
	}
	return servedLists{Tools: newServedList[mcp.Tool](raw.Tools, true),
		Resources: newServedList[mcp.Resource](raw.Resources, false),
		Prompts:   newServedList[mcp.Prompt](raw.Prompts, false)}
}

// newServedList decodes one list of Raw; tool says it is the tools.
func newServedList[T any](raw []json.RawMessage, tool bool) *servedList[T] {
	l := &servedList[T]{items: make([]any, len(raw)), encs: make([]string, len(raw)), used: make([]bool, len(raw)),
		byEnc: make(map[string][]int, len(raw)), next: map[string]int{}, same: map[string]bool{}}
	for i, r := range raw {
		var typed *T
		if json.Unmarshal(r, &typed) != nil {
			continue
		}
		enc, err := json.Marshal(typed)
		if err != nil {
			continue
		}
		l.items[i] = dropAbsent(decodeGeneric(r), tool)
		l.encs[i] = string(enc)
		l.byEnc[l.encs[i]] = append(l.byEnc[l.encs[i]], i)
	}
	return l
}

// dropAbsent drops from a served item what go-sdk's types and the typed
// comparison take for absent, so "description": null or "_meta": {} is
// not a change from a snapshot that leaves them out: an object's member
// whose value is null, and an empty _meta object. What go-sdk keeps
// whole is kept as it is: the contents of a _meta (a map, where
// {"k": null} is a value) and, when tool is set (v a tool), its
// inputSchema and outputSchema, where a null ("const": null) means null.
func dropAbsent(v any, tool bool) any {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if x == nil {
				delete(v, k)
				continue
			}
			if k == "_meta" {
				if m, ok := x.(map[string]any); ok && len(m) == 0 {
					delete(v, k)
				}
				continue
			}
			if tool && (k == "inputSchema" || k == "outputSchema") {
				continue
			}
			v[k] = dropAbsent(x, false)
		}
	case []any:
		for i, x := range v {
			v[i] = dropAbsent(x, false)
		}
	}
	return v
}

// match pairs a typed item with the first unused served item whose typed decoding encodes as enc,
// and only when all served items of that encoding are alike as served:
// else which one it stands for is unknown, and it has none (false).
func (l *servedList[T]) match(enc []byte) (any, bool) {
	if l == nil {
		return nil, false
	}
	group := l.byEnc[string(enc)]
	i := l.next[string(enc)]
	for i < len(group) && l.used[group[i]] {
		i++
	}
	l.next[string(enc)] = i
	if i == len(group) || !l.alike(string(enc)) {
		return nil, false
	}
	l.used[group[i]] = true
	return l.items[group[i]], true
}

// alike reports whether the served items of encoding enc are alike.
func (l *servedList[T]) alike(enc string) bool {
	same, ok := l.same[enc]
	if !ok {
		group := l.byEnc[enc]
		same = true
		for _, i := range group[1:] {
			var fields []FieldChange
			if diffValue(&fields, "", l.items[group[0]], l.items[i]); len(fields) > 0 {
				same = false
				break
			}
		}
		l.same[enc] = same
	}
	return same
}

// item is one item of a snapshot to compare: its typed fields' JSON form
// and, when it matched an item of Raw, that item as served.
type item struct {
	enc    []byte // the typed item's encoding, nil if it has none
	err    error  // why it has none
	served any
	ok     bool // served is set
}

// typed is the item's typed fields as their generic JSON form, numbers
// kept as written (a float64 would make 9007199254740993 equal ...992).
func (it *item) typed() any {
	if it.err != nil {
		return fmt.Sprintf("unencodable: %v", it.err)
	}
	return decodeGeneric(it.enc)
}

// keyed indexes items by key, each paired with an item of served that
// decodes alike (match). A key met again
// (a server listing two tools of one name) is indexed as "name #2" and so
// on, so no item hides another.
func keyed[T any](items []*T, key func(*T) string, served *servedList[T]) map[string]*item {
	out := make(map[string]*item, len(items))
	seen := map[string]int{}
	for _, t := range items {
		k := key(t)
		if seen[k]++; seen[k] > 1 {
			k += " #" + strconv.Itoa(seen[k])
		}
		it := &item{}
		if it.enc, it.err = json.Marshal(t); it.err == nil {
			it.served, it.ok = served.match(it.enc)
		}
		out[k] = it
	}
	return out
}

// decodeGeneric decodes b into maps, slices and scalars, numbers kept as
// written.
func decodeGeneric(b []byte) any {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var out any
	_ = dec.Decode(&out)
	return out
}

// sameNumber compares two JSON numbers by value: 1, 1.0, 10e-1 and 1e0
// are one number, 9007199254740993 and 9007199254740992 two. It compares
// their decimal forms as text, in time linear in their length, whatever
// the exponent (1e999999999 too); a number that is not valid JSON equals
// only itself.
func sameNumber(a, b json.Number) bool {
	if a == b {
		return true
	}
	x, okx := canonicalNumber(string(a))
	y, oky := canonicalNumber(string(b))
	return okx && oky && x == y
}

// decimal is a number's value as 0.digits × 10^exp: digits without
// leading or trailing zeros (empty for zero, whose sign and exp are then
// zero too), exp in decimal.
type decimal struct {
	neg    bool
	digits string
	exp    string
}

// canonicalNumber parses a JSON number (-?int(.frac)?([eE][+-]?exp)?)
// into its decimal; false if s is not one.
func canonicalNumber(s string) (decimal, bool) {
	var d decimal
	i := 0
	if i < len(s) && s[i] == '-' {
		d.neg = true
		i++
	}
	intStart := i
	for i < len(s) && isDigit(s[i]) {
		i++
	}
	intPart := s[intStart:i]
	if intPart == "" || (len(intPart) > 1 && intPart[0] == '0') {
		return d, false
	}
	var frac string
	if i < len(s) && s[i] == '.' {
		i++
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if frac = s[start:i]; frac == "" {
			return d, false
		}
	}
	expNeg, expDigits := false, ""
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			expNeg = s[i] == '-'
			i++
		}
		start := i
		for i < len(s) && isDigit(s[i]) {
			i++
		}
		if expDigits = s[start:i]; expDigits == "" {
			return d, false
		}
	}
	if i != len(s) {
		return d, false
	}
	// The value is 0.(intPart frac) × 10^(exp + len(intPart)); leading
	// zeros of intPart frac lower that exponent, trailing ones change
	// nothing.
	all := intPart + frac
	lead := len(all) - len(strings.TrimLeft(all, "0"))
	d.digits = strings.TrimRight(all[lead:], "0")
	if d.digits == "" {
		return decimal{}, true // zero, -0 and 0e5 included
	}
	d.exp = addExponent(expNeg, strings.TrimLeft(expDigits, "0"), len(intPart)-lead)
	return d, true
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// addExponent returns (±mag) + k in decimal, mag a magnitude's digits
// without leading zeros, in time linear in len(mag) and without big
// arithmetic: k is at most a number's length, so past 18 digits only the
// low 18 move, with a carry or borrow into the rest.
func addExponent(neg bool, mag string, k int) string {
	const lowDigits = 18
	const base = 1_000_000_000_000_000_000 // 10^lowDigits
	if len(mag) <= lowDigits {
		var v int64
		if mag != "" {
			v, _ = strconv.ParseInt(mag, 10, 64) // below 10^18: fits
		}
		if neg {
			v = -v
		}
		return strconv.FormatInt(v+int64(k), 10) // |k| < 2^62: no overflow
	}
	// |±mag| ≥ 10^18 > |k|: the sum has mag's sign and magnitude mag ± |k|,
	// written into b after a byte for the sign and a 0 for a carry.
	j := int64(k)
	if neg {
		j = -j
	}
	hi, lo := mag[:len(mag)-lowDigits], mag[len(mag)-lowDigits:]
	low, _ := strconv.ParseInt(lo, 10, 64)
	low += j
	carry := 0
	switch {
	case low < 0:
		low += base
		carry = -1
	case low >= base:
		low -= base
		carry = 1
	}
	b := make([]byte, 0, 2+len(mag))
	b = append(b, ' ', '0')
	b = append(b, hi...)
	addDigit(b[1:], carry)
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], low, 10)
	for range lowDigits - len(d) {
		b = append(b, '0')
	}
	b = append(b, d...)
	z := 1 // the sum is at least 10^18 - |k| > 0: it has a digit other than 0
	for b[z] == '0' {
		z++
	}
	if neg {
		b[z-1] = '-'
		return string(b[z-1:])
	}
	return string(b[z:])
}

// addDigit adds carry (-1, 0 or 1) to the decimal digits b in place; b is
// at least 1 when carry is -1 and starts with a 0 when it is 1.
func addDigit(b []byte, carry int) {
	for i := len(b) - 1; carry != 0 && i >= 0; i-- {
		switch {
		case carry > 0 && b[i] < '9':
			b[i]++
			carry = 0
		case carry > 0:
			b[i] = '0'
		case b[i] > '0':
			b[i]--
			carry = 0
		default:
			b[i] = '9'
		}
	}
}

// diffKind compares the items of one kind by key: as served when both
// matched an item of their Raw, else by their typed fields.
func diffKind(kind string, old, new map[string]*item) []Change {
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
			if o.ok && n.ok {
				diffValue(&fields, "", o.served, n.served)
			} else {
				diffValue(&fields, "", o.typed(), n.typed())
			}
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

// Package hostcfg is the double's model of the service's host configs: the
// host-compatibility catalog it serves (the service's bundled catalog,
// reference-host-catalog.json, embedded byte for byte), the reader rules
// the service's own client applies to a catalog envelope, the config a
// template seeds, and the host config v2 validator (Canonicalize) with the
// content address every host write gets (ID). Sources: reference-notes,
// section "Host-compatibility catalog and host configs".
package hostcfg

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/projectops/projectops-go/internal/hostconfig"
)

//go:embed data/host-catalog.json
var bundledJSON []byte

// Catalog is a parsed catalog envelope.
type Catalog struct {
	// Version is the envelope's publish version (0 for the bundled one).
	Version float64
	// ContentHash and PublishedAt are the envelope's, as published.
	ContentHash string
	PublishedAt float64

	order []string                  // host ids in the envelope's order
	hosts map[string]map[string]any // host id -> entry (decoded)
	raw   []byte                    // the bundled bytes, served as they are
}

// Bundled is the service's bundled catalog (16 hosts), parsed once.
var Bundled = sync.OnceValue(func() *Catalog {
	c, err := Parse(bundledJSON)
	if err != nil {
		panic("hostcfg: the bundled catalog does not parse: " + err.Error())
	}
	c.raw = bundledJSON
	return c
})

// displayKeys are the metadata half of an entry: what a template strips
// before the rest becomes a host config.
var displayKeys = []string{"id", "label", "provenance", "rendersMcpApps", "supportedProtocolVersions",
	"verifiedAt", "imageSupport", "compatibilityEvidence", "styleVariablesByTheme"}

// IDs lists the catalog's host ids in the envelope's order.
func (c *Catalog) IDs() []string { return slices.Clone(c.order) }

// Has reports whether the catalog has a host id.
func (c *Catalog) Has(id string) bool { _, ok := c.hosts[id]; return ok }

// Envelope is the GET /host-catalog body for this catalog with source set
// ("bundled" or "live"). The bundled catalog answers its embedded bytes.
func (c *Catalog) Envelope(source string) []byte {
	if c.raw != nil && source == "bundled" {
		return c.raw
	}
	hosts := make(map[string]any, len(c.hosts))
	for id, e := range c.hosts {
		hosts[id] = e
	}
	b, err := json.Marshal(map[string]any{
		"schemaVersion": 2, "version": c.Version, "contentHash": c.ContentHash, "publishedAt": c.PublishedAt,
		"catalog": map[string]any{"hostsById": hosts}, "source": source,
	})
	if err != nil {
		panic("hostcfg: a parsed catalog does not encode: " + err.Error())
	}
	return b
}

// Template is the config a host created from template id gets: the entry
// minus its display keys, deep-copied, with theme (when given) set in
// hostContext. No top-level theme key is ever written.
func (c *Catalog) Template(id, theme string) (map[string]any, bool) {
	e, ok := c.hosts[id]
	if !ok {
		return nil, false
	}
	cfg := hostconfig.DeepCopy(e).(map[string]any)
	for _, k := range displayKeys {
		delete(cfg, k)
	}
	if theme != "" {
		hc, _ := hostconfig.Object(cfg["hostContext"])
		if hc == nil {
			hc = map[string]any{}
		}
		hc["theme"] = theme
		cfg["hostContext"] = hc
	}
	return cfg, true
}

// Parse reads a catalog envelope with the rules of the service's own
// reader: schemaVersion must be 2; unknown keys are dropped (mcpProfile
// passes through); an unknown provenance reads as "assumed", unknown
// display modes are filtered out, an unknown widgetDisplayModeRequests
// reads as unset, an unknown image placement as "none"; any other type
// error fails the whole envelope.
func Parse(b []byte) (*Catalog, error) {
	var env struct {
		SchemaVersion *float64 `json:"schemaVersion"`
		Version       *float64 `json:"version"`
		ContentHash   *string  `json:"contentHash"`
		PublishedAt   *float64 `json:"publishedAt"`
		Catalog       *struct {
			HostsByID json.RawMessage `json:"hostsById"`
		} `json:"catalog"`
	}
	if err := json.Unmarshal(b, &env); err != nil {
		return nil, fmt.Errorf("catalog envelope: %w", err)
	}
	switch {
	case env.SchemaVersion == nil || *env.SchemaVersion != 2:
		return nil, errors.New("catalog envelope: schemaVersion must be 2")
	case env.Version == nil || env.ContentHash == nil || env.PublishedAt == nil:
		return nil, errors.New("catalog envelope: version, contentHash and publishedAt are required")
	case env.Catalog == nil || len(env.Catalog.HostsByID) == 0:
		return nil, errors.New("catalog envelope: catalog.hostsById is required")
	}
	order, raw, err := orderedObject(env.Catalog.HostsByID)
	if err != nil {
		return nil, fmt.Errorf("catalog envelope: hostsById: %w", err)
	}
	c := &Catalog{Version: *env.Version, ContentHash: *env.ContentHash, PublishedAt: *env.PublishedAt,
		order: order, hosts: map[string]map[string]any{}}
	for _, id := range order {
		var v any
		if err := json.Unmarshal(raw[id], &v); err != nil {
			return nil, err
		}
		e, err := entry(id, v)
		if err != nil {
			return nil, fmt.Errorf("catalog envelope: hostsById.%s: %w", id, err)
		}
		c.hosts[id] = e
	}
	return c, nil
}

// orderedObject splits a JSON object into its members, keeping key order.
func orderedObject(b []byte) ([]string, map[string]json.RawMessage, error) {
	dec := json.NewDecoder(bytesReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, errors.New("must be an object")
	}
	var order []string
	raw := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, err
		}
		k := t.(string)
		if _, dup := raw[k]; !dup {
			order = append(order, k)
		}
		raw[k] = v
	}
	return order, raw, nil
}

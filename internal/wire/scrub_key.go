package wire

import "net/url"

// KeyValues is the group an API key is taken out of text by, under
// marker, Raw (a raw JSON body is cleaned of it before it is decoded): in
// any spelling AnySpelling knows, as a credential header's value is (a
// service, proxy or gateway may quote it percent- or JSON-escaped by any
// encoder, part-escaped, two layers deep); a key too short for that rule
// as written and as a URL path and query escape it. An empty key gives a
// group of no value.
func KeyValues(key, marker string) ScrubValues {
	switch {
	case key == "":
		return ScrubValues{Marker: marker}
	case len(key) >= minScrubbed:
		return ScrubValues{Marker: marker, Rule: AnySpelling, Raw: true, Values: []string{key}}
	}
	return ScrubValues{Marker: marker, Rule: AsWritten, Raw: true,
		Values: []string{key, url.PathEscape(key), url.QueryEscape(key)}}
}

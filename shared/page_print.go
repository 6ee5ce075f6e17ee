package shared

import (
	"fmt"
	"log/slog"
	"strconv"
)

// Format implements fmt.Formatter through a method-less copy printed with
// the same verb, so each item goes through its own Format (a server's URL
// secret redacted): without it fmt's bad-verb path (a *Page in a slice
// under %s) printed the items raw.
func (p Page[T]) Format(f fmt.State, verb rune) {
	if verb == 'v' && f.Flag('#') { // the copy's type would name itself
		_, _ = fmt.Fprintf(f, "%T{Items:%#v, NextCursor:%q}", p, p.Items, p.NextCursor)
		return
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), pagePlain[T](p))
}

// pagePlain is Page without its methods, for Format.
type pagePlain[T any] Page[T]

// LogValue logs each item through its own LogValuer: slog's JSON handler
// would otherwise encode the page with encoding/json, which writes items
// as the service sent them (a tunnel server's URL with its ?k= secret).
func (p Page[T]) LogValue() slog.Value {
	if len(p.Items) == 0 { // an empty group would drop the key
		return slog.GroupValue(slog.Any("items", []T{}), slog.String("nextCursor", p.NextCursor))
	}
	items := make([]slog.Attr, len(p.Items))
	for i, it := range p.Items {
		items[i] = slog.Any(strconv.Itoa(i), it)
	}
	return slog.GroupValue(slog.Attr{Key: "items", Value: slog.GroupValue(items...)},
		slog.String("nextCursor", p.NextCursor))
}

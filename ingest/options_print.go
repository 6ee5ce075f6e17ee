package ingest

import (
	"fmt"
	"io"
	"log/slog"
)

// String shows the options with the API key redacted.
func (o TBOptions) String() string {
	return fmt.Sprintf("TBOptions{SpoolDir:%s Project:%s Suite:%s Strict:%t APIKey:%s}",
		o.SpoolDir, o.Project, o.Suite, o.Strict, redacted(o.APIKey))
}

// GoString is String.
func (o TBOptions) GoString() string { return o.String() }

// Format makes every verb print String.
func (o TBOptions) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, o.String()) }

// LogValue logs the options without the API key.
func (o TBOptions) LogValue() slog.Value {
	return slog.GroupValue(slog.String("spoolDir", o.SpoolDir), slog.String("project", o.Project),
		slog.String("suite", o.Suite), slog.Bool("strict", o.Strict), slog.String("apiKey", redacted(o.APIKey)))
}

package catalog

import (
	"fmt"
	"log/slog"

	"github.com/projectops/projectops-go/internal/wire"
)

// Format implements fmt.Formatter: every verb prints the server with the
// ?k= secret of a tunnel URL redacted (JSON keeps the service's value).
func (s ChatboxServer) Format(f fmt.State, verb rune) {
	type ChatboxServer plainChatboxServer
	s.URL = wire.RedactSecretQuery(s.URL)
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), ChatboxServer(s))
}

// plainChatboxServer is ChatboxServer without its methods, for Format.
type plainChatboxServer ChatboxServer

// LogValue implements slog.LogValuer with the URL's secret redacted.
func (s ChatboxServer) LogValue() slog.Value {
	return slog.GroupValue(slog.String("id", s.ID), slog.String("name", s.Name),
		slog.String("url", wire.RedactSecretQuery(s.URL)), slog.Bool("useOAuth", s.UseOAuth))
}

// Format implements fmt.Formatter through a method-less copy printed with
// the same verb, so each server goes through its own Format: without it
// fmt's bad-verb path (a *ChatboxDetail in a slice under %s) printed the
// servers' URLs raw.
func (d ChatboxDetail) Format(f fmt.State, verb rune) {
	type ChatboxDetail plainChatboxDetail
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), ChatboxDetail(d))
}

// LogValue implements slog.LogValuer: the detail as it is, its servers'
// URLs redacted. slog's JSON handler would otherwise encode it with
// encoding/json, which writes a tunnel server's URL with its ?k= secret.
func (d ChatboxDetail) LogValue() slog.Value {
	type ChatboxDetail plainChatboxDetail
	c := ChatboxDetail(d)
	c.Servers = make([]ChatboxServer, len(d.Servers))
	for i, sv := range d.Servers {
		sv.URL = wire.RedactSecretQuery(sv.URL)
		c.Servers[i] = sv
	}
	return slog.AnyValue(c)
}

// plainChatboxDetail is ChatboxDetail without its methods, for Format and
// LogValue.
type plainChatboxDetail ChatboxDetail

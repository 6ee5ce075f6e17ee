package ingest

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/projectops/projectops-go/internal/wire"
)

// ServerReplayConfig lets the service reconnect to one of the run's MCP
// servers. AccessToken, RefreshToken and ClientSecret are secrets: every
// fmt verb, slog and encoding/json show them as [REDACTED] (only the SDK's
// request bodies carry them), and the Reporter's spool keeps the config
// without them (a resumed run starts without its secrets).
type ServerReplayConfig struct {
	ServerID     string `json:"serverId"`
	URL          string `json:"url"`
	PreferSSE    bool   `json:"preferSSE,omitempty"`
	AccessToken  string `json:"accessToken,omitempty"`
	RefreshToken string `json:"refreshToken,omitempty"`
	ClientID     string `json:"clientId,omitempty"`
	ClientSecret string `json:"clientSecret,omitempty"`
}

func redacted(s string) string {
	if s == "" {
		return ""
	}
	return "[REDACTED]"
}

// String shows the config with its secrets redacted.
func (c ServerReplayConfig) String() string {
	return fmt.Sprintf("ServerReplayConfig{ServerID:%s URL:%s PreferSSE:%t AccessToken:%s RefreshToken:%s ClientID:%s ClientSecret:%s}",
		c.ServerID, wire.RedactSecretQuery(c.URL), c.PreferSSE, redacted(c.AccessToken), redacted(c.RefreshToken), c.ClientID, redacted(c.ClientSecret))
}

// GoString is String.
func (c ServerReplayConfig) GoString() string { return c.String() }

// Format makes every verb print String.
func (c ServerReplayConfig) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, c.String()) }

// LogValue logs the config without its secrets (slog's JSON handler would
// otherwise encode it with encoding/json, bypassing Format).
func (c ServerReplayConfig) LogValue() slog.Value {
	return slog.GroupValue(slog.String("serverId", c.ServerID), slog.String("url", wire.RedactSecretQuery(c.URL)),
		slog.Bool("preferSSE", c.PreferSSE), slog.String("accessToken", redacted(c.AccessToken)),
		slog.String("refreshToken", redacted(c.RefreshToken)), slog.String("clientId", c.ClientID),
		slog.String("clientSecret", redacted(c.ClientSecret)))
}

// MarshalJSON writes the config with its secrets redacted: encoding/json
// anywhere (slog's JSON handler on a config nested in another value, a
// log line) never shows them. The SDK's request bodies send them in clear.
func (c ServerReplayConfig) MarshalJSON() ([]byte, error) {
	r := replayPlain(c)
	r.URL = wire.RedactSecretQuery(c.URL)
	r.AccessToken, r.RefreshToken, r.ClientSecret = redacted(c.AccessToken), redacted(c.RefreshToken), redacted(c.ClientSecret)
	return json.Marshal(r)
}

// replayPlain is ServerReplayConfig without its methods: the wire form.
type replayPlain ServerReplayConfig

// wireJSON sends replay configs and host config headers in clear in
// request bodies.
var wireJSON = jsonv2.JoinMarshalers(
	wire.Clear(func(c ServerReplayConfig) replayPlain { return replayPlain(c) }),
	wire.Clear(func(c HostConfig) map[string]any { return c }))

// secrets are the run's own secret values: its replay configs' tokens,
// client secrets and URL secrets (a tunnel's k, a password) and its host
// config's credential header values and key-like header values
// (wire.KeyLike), which the reporter redacts by value wherever they occur
// (see redactor.values).
func (p RunParams) secrets() []string {
	var out []string
	for _, c := range p.ServerReplayConfigs {
		out = append(out, c.AccessToken, c.RefreshToken, c.ClientSecret)
		out = append(out, wire.URLSecrets(c.URL)...)
	}
	if len(p.HostConfig) > 0 {
		out = append(out, wire.HeaderSecrets(map[string]any(p.HostConfig))...) // HostConfig itself encodes redacted
	}
	return out
}

// withoutSecrets is p as the spool keeps it: replay configs lose their
// tokens and client secret, and the host config is left out, as is a replay
// config whose URL carries a secret (a tunnel's ?k=, a userinfo password).
func (p RunParams) withoutSecrets() RunParams {
	// The host config cannot be kept whole (its headers are credentials)
	// and a redacted one must never be resent: a resumed run starts
	// without it, and the service keeps the one it has.
	p.HostConfig, p.HostConfigHash = nil, ""
	if len(p.ServerReplayConfigs) == 0 {
		return p
	}
	cfgs := make([]ServerReplayConfig, 0, len(p.ServerReplayConfigs))
	for _, c := range p.ServerReplayConfigs {
		if wire.RedactSecretQuery(c.URL) != c.URL {
			continue // as the host config: never resent redacted
		}
		c.AccessToken, c.RefreshToken, c.ClientSecret = "", "", ""
		cfgs = append(cfgs, c)
	}
	p.ServerReplayConfigs = cfgs
	return p
}

// LogValue logs what identifies the run, with its replay configs redacted
// (slog's JSON handler would otherwise encode them with encoding/json).
func (p RunParams) LogValue() slog.Value {
	cfgs := make([]any, len(p.ServerReplayConfigs))
	for i, c := range p.ServerReplayConfigs {
		cfgs[i] = c.LogValue()
	}
	return slog.GroupValue(slog.String("suiteName", p.SuiteName), slog.String("externalRunId", p.ExternalRunID),
		slog.String("framework", p.Framework), slog.Any("tags", p.Tags), slog.Any("serverReplayConfigs", cfgs))
}

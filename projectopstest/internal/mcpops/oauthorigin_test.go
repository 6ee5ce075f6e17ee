package mcpops

import (
	"net/url"
	"testing"
)

// Plain http is for URLs that never cross a network: loopback and the
// double's in-process host.
func TestSecureURL(t *testing.T) {
	for raw, want := range map[string]bool{
		"https://as.example/token":     true,
		"http://127.0.0.1:8080/token":  true,
		"http://[::1]/token":           true,
		"http://localhost:9/token":     true,
		"http://inprocess.invalid/as":  true,
		"http://as.example/token":      false,
		"http://127.0.0.1.example/tok": false,
		"ftp://127.0.0.1/token":        false,
		"https:///token":               false,
		"/token":                       false,
	} {
		u, err := url.Parse(raw)
		if err != nil {
			t.Fatal(err)
		}
		if got := secureURL(u); got != want {
			t.Errorf("secureURL(%s) = %v, want %v", raw, got, want)
		}
	}
}

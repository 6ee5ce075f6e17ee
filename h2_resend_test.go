package projectops_test

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/go-cleanhttp"

	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/hosts"
	"github.com/projectops/projectops-go/option"
)

// h2Frame writes one HTTP/2 frame.
func h2Frame(w io.Writer, typ, flags byte, stream uint32, payload []byte) error {
	var hdr [9]byte
	hdr[0], hdr[1], hdr[2] = byte(len(payload)>>16), byte(len(payload)>>8), byte(len(payload))
	hdr[3], hdr[4] = typ, flags
	binary.BigEndian.PutUint32(hdr[5:], stream)
	if _, err := w.Write(hdr[:]); err != nil {
		return err
	}
	_, err := w.Write(payload)
	return err
}

// h2Peer is a hand-written HTTP/2 server over TLS (net/http's cannot reset
// a stream with the codes below): once the first request has come whole
// (HEADERS or DATA with END_STREAM), first answers it with frames of its
// choice; every later request gets 200 and a host. It returns a client on
// the SDK's default transport trusting the peer, and the count of whole
// requests the peer saw.
func h2Peer(t *testing.T, first func(w io.Writer, stream uint32) error) (*projectops.Client, *atomic.Int32) {
	t.Helper()
	// The httptest TLS server only lends its certificate and trust.
	donor := httptest.NewUnstartedServer(http.NotFoundHandler())
	donor.EnableHTTP2 = true
	donor.StartTLS()
	t.Cleanup(donor.Close)
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: donor.TLS.Certificates, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	requests := new(atomic.Int32)
	var wg sync.WaitGroup
	t.Cleanup(func() { ln.Close(); wg.Wait() })
	wg.Add(1) // the accept loop, so its own Adds come while the count is above 0
	go func() {
		defer wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				serveH2(conn, requests, first)
			}()
		}
	}()
	rt := cleanhttp.DefaultPooledTransport() // the SDK's default: it attempts HTTP/2
	rt.TLSClientConfig = donor.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_h2peer"),
		option.WithBaseURL("https://"+ln.Addr().String()+"/api/v1"), option.WithTransport(rt),
		option.WithRetryBackoff(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.CloseIdleConnections)
	return c, requests
}

// serveH2 reads frames off one connection, acknowledging settings and
// answering each whole request as h2Peer says.
func serveH2(conn net.Conn, requests *atomic.Int32, first func(w io.Writer, stream uint32) error) {
	_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
	if _, err := io.ReadFull(conn, make([]byte, 24)); err != nil { // the client preface
		return
	}
	_ = h2Frame(conn, 4, 0, 0, nil) // SETTINGS
	var hdr [9]byte
	for {
		if _, err := io.ReadFull(conn, hdr[:]); err != nil {
			return
		}
		n := int(hdr[0])<<16 | int(hdr[1])<<8 | int(hdr[2])
		typ, flags := hdr[3], hdr[4]
		stream := binary.BigEndian.Uint32(hdr[5:]) & 0x7fffffff
		if _, err := io.CopyN(io.Discard, conn, int64(n)); err != nil {
			return
		}
		switch {
		case typ == 4 && flags&1 == 0: // the client's SETTINGS: ack
			_ = h2Frame(conn, 4, 1, 0, nil)
		case (typ == 0 || typ == 1) && flags&1 != 0: // END_STREAM: the request is whole
			if requests.Add(1) == 1 {
				_ = first(conn, stream)
				continue
			}
			_ = h2Frame(conn, 1, 4, stream, []byte{0x88}) // :status 200 (static table 8)
			_ = h2Frame(conn, 0, 1, stream, []byte(`{"id":"hst_1","name":"x"}`))
		}
	}
}

// A create is sent again over HTTP/2 exactly when the peer promises it did
// not process it (RFC 9113 section 8.7: REFUSED_STREAM, a graceful GOAWAY
// below the stream). A PROTOCOL_ERROR reset after the whole request went
// out (a load balancer or CDN that passed it upstream) proves nothing:
// net/http would re-send such a request itself when it can rewind the
// body, so a create must not let it, or it runs twice behind the retry
// rules (docs/sdk.md: creates are retried only when they provably did not
// run).
func TestH2CreateResentOnlyWhenUnprocessed(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		first  func(w io.Writer, stream uint32) error
		resent bool
	}{
		{"PROTOCOL_ERROR", func(w io.Writer, stream uint32) error { return h2Frame(w, 3, 0, stream, []byte{0, 0, 0, 1}) }, false},
		{"REFUSED_STREAM", func(w io.Writer, stream uint32) error { return h2Frame(w, 3, 0, stream, []byte{0, 0, 0, 7}) }, true},
		// Last stream id 0, NO_ERROR: nothing on this connection ran.
		{"GOAWAY", func(w io.Writer, _ uint32) error { return h2Frame(w, 7, 0, 0, make([]byte, 8)) }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, requests := h2Peer(t, tc.first)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			h, err := c.Hosts.Create(ctx, "prj_1", hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude})
			switch got := requests.Load(); {
			case !tc.resent && (got != 1 || err == nil):
				t.Fatalf("POST create sent %d times (err=%v); a write that may have run must be sent once and fail", got, err)
			case tc.resent && (err != nil || got != 2 || h.ID != "hst_1"):
				t.Fatalf("create the peer declared unprocessed: %+v, %v after %d requests; want hst_1 after 2", h, err, got)
			}
		})
	}
}

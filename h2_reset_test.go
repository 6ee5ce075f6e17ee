package projectops_test

import (
	"context"
	"crypto/tls"
	"encoding/binary"
	"io"
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

// A load balancer or CDN speaking HTTP/2 resets a stream with
// PROTOCOL_ERROR after it has passed the whole request upstream (the write
// ran). net/http's HTTP/2 transport re-sends such a request on its own when
// it can rewind the body (Request.GetBody): a create must not get one, or it
// runs twice behind the retry rules (docs/sdk.md: creates are retried only
// on 429 and connection refused).
func TestH2ProtocolResetDoesNotResendCreate(t *testing.T) {
	t.Parallel()
	// The httptest TLS server only lends its certificate and a client that
	// trusts it; the HTTP/2 server below is hand-written.
	donor := httptest.NewUnstartedServer(http.NotFoundHandler())
	donor.EnableHTTP2 = true
	donor.StartTLS()
	defer donor.Close()
	cfg := &tls.Config{Certificates: donor.TLS.Certificates, NextProtos: []string{"h2"}}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	var requests atomic.Int32 // complete requests (HEADERS .. END_STREAM) seen
	var wg sync.WaitGroup
	defer wg.Wait()
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer conn.Close()
				_ = conn.SetDeadline(time.Now().Add(30 * time.Second))
				preface := make([]byte, 24)
				if _, err := io.ReadFull(conn, preface); err != nil {
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
					case typ == 4 && flags&1 == 0: // client SETTINGS: ack
						_ = h2Frame(conn, 4, 1, 0, nil)
					case (typ == 0 || typ == 1) && flags&1 != 0: // END_STREAM: the request is whole
						if requests.Add(1) == 1 {
							// RST_STREAM PROTOCOL_ERROR after the request was received.
							_ = h2Frame(conn, 3, 0, stream, []byte{0, 0, 0, 1})
							continue
						}
						// :status 200 (static table index 8), then a JSON body.
						_ = h2Frame(conn, 1, 4, stream, []byte{0x88})
						_ = h2Frame(conn, 0, 1, stream, []byte(`{"id":"hst_1","name":"x"}`))
					}
				}
			}()
		}
	}()

	// The SDK's default transport (go-cleanhttp's pooled one, which attempts
	// HTTP/2), trusting the test certificate.
	rt := cleanhttp.DefaultPooledTransport()
	rt.TLSClientConfig = donor.Client().Transport.(*http.Transport).TLSClientConfig.Clone()
	c, err := projectops.NewClient(option.WithoutEnvironment(), option.WithAPIKey("sk_test_audit"),
		option.WithBaseURL("https://"+ln.Addr().String()+"/api/v1"), option.WithTransport(rt),
		option.WithRetryBackoff(time.Millisecond, 2*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer c.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err = c.Hosts.Create(ctx, "prj_1", hosts.CreateParams{Name: "x", Template: hosts.TemplateClaude})
	if got := requests.Load(); got != 1 {
		t.Fatalf("POST create sent %d times over HTTP/2 after a stream reset (err=%v); a write that may have run must be sent once", got, err)
	}
	if err == nil {
		t.Fatal("create whose stream was reset reported success")
	}
}

package tunnels

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// dial opens the relay WebSocket with the subprotocol and bearer token,
// and returns the Cork under it too (nil when the connection cannot be
// seen: its messages are then written one by one).
func dial(ctx context.Context, g *Grant, client *http.Client) (*websocket.Conn, *tunnelwire.Cork, error) {
	keep := &tunnelwire.UpgradeTransport{Base: client.Transport}
	c := *client
	c.Transport = keep
	hdr := http.Header{}
	hdr.Set("Authorization", "Bearer "+g.ConnectToken)
	conn, resp, err := websocket.Dial(ctx, g.RelayWSURL, &websocket.DialOptions{
		HTTPClient:   &c,
		HTTPHeader:   hdr,
		Subprotocols: []string{tunnelwire.Subprotocol},
	})
	if err != nil {
		if resp != nil {
			switch {
			case resp.StatusCode >= 400 && resp.StatusCode < 500 && resp.StatusCode != http.StatusTooManyRequests &&
				resp.StatusCode != http.StatusRequestTimeout:
				return nil, nil, upgradeRefused(resp.StatusCode)
			}
		}
		return nil, nil, dialError(err)
	}
	if conn.Subprotocol() != tunnelwire.Subprotocol {
		_ = conn.Close(websocket.StatusProtocolError, "subprotocol required")
		return nil, nil, fmt.Errorf("%w: relay did not accept subprotocol %s", errPermanent, tunnelwire.Subprotocol)
	}
	conn.SetReadLimit(tunnelwire.MaxMessage)
	return conn, keep.Cork, nil
}

// dialError is a failed dial's error, the URL net/http names in it shown
// without its query or userinfo (the relay URL is the service's, and may
// carry more than a path), or as "the relay URL" when it does not parse.
// errors.Is and As see the cause beneath, but not the wrappers net/http's
// *url.Error sits under (their text is in the message already), nor that
// *url.Error itself: they find a copy showing the same cleaned URL, so a
// caller that asks it Timeout() and prints it shows no query either. One
// that does not parse has no copy: its cause is reached directly.
//
// The message is clean throughout (every quoting of the raw URL in it is
// replaced), and so is the copy of the *url.Error net/http made for the
// dial, its text included; what lies beneath that is as the client's
// transport made it. net/http's own causes name no URL, but a custom
// transport (WithHTTPClient) that calls another http.Client wraps that
// client's *url.Error, raw URL and all: it cannot be cleaned without
// cutting the chain errors.Is and As walk, so it is left as it was.
func dialError(err error) error {
	msg := err.Error()
	var ue *url.Error
	if !errors.As(err, &ue) {
		return &relayDialError{msg: "tunnels: connecting to the relay: " + msg, err: err}
	}
	raw, shown, under := strconv.Quote(ue.URL), "the relay URL", ue.Err
	if u, perr := url.Parse(ue.URL); perr == nil {
		u.RawQuery, u.ForceQuery, u.User = "", false, nil
		shown = strconv.Quote(u.String())
		cause := ue.Err
		if s := cause.Error(); strings.Contains(s, raw) { // a nested client's *url.Error
			cause = &relayDialError{msg: strings.ReplaceAll(s, raw, shown), err: cause}
		}
		under = &url.Error{Op: ue.Op, URL: u.String(), Err: cause} // net/http's is left as it was
	}
	// The wrappers above ue hold its text already: replaced there too.
	msg = strings.ReplaceAll(msg, raw, shown)
	return &relayDialError{msg: "tunnels: connecting to the relay: " + msg, err: under}
}

// relayDialError is dialError's: its own, cleaned, text over the cause.
type relayDialError struct {
	msg string
	err error
}

func (e *relayDialError) Error() string { return e.msg }
func (e *relayDialError) Unwrap() error { return e.err }

package tunnels_test

import (
	"net/http"
	"testing"

	"github.com/coder/websocket"

	"github.com/projectops/projectops-go/internal/tunnelwire"
)

// A host that does not offer batching (an older SDK, another
// implementation) gets an empty Ready and one message per frame, and may
// answer one frame per message too.
func TestRelayWithoutBatching(t *testing.T) {
	t.Parallel()
	f := setup(t)
	g := create(t, f, "plain")
	hdr := http.Header{"Authorization": {"Bearer " + g.ConnectToken}}
	conn, _, err := websocket.Dial(t.Context(), g.RelayWSURL, &websocket.DialOptions{
		HTTPClient: f.Srv.Client(), HTTPHeader: hdr, Subprotocols: []string{tunnelwire.Subprotocol}})
	if err != nil {
		t.Fatal(err)
	}
	defer conn.CloseNow()
	read := func() tunnelwire.Frame {
		t.Helper()
		_, msg, err := conn.Read(t.Context())
		if err != nil {
			t.Fatal(err)
		}
		fr, err := tunnelwire.Decode(msg)
		if err != nil {
			t.Fatal(err)
		}
		return fr
	}
	if fr := read(); fr.Kind != tunnelwire.Ready || len(fr.Payload) != 0 {
		t.Fatalf("first frame %s %q, want an empty ready", fr.Kind, fr.Payload)
	}
	type reply struct {
		status int
		body   string
	}
	done := make(chan reply, 1)
	go func() {
		st, body := get(t, f, http.MethodPost, g.URL, "ping")
		done <- reply{st, body}
	}()
	var kinds []tunnelwire.Kind
	var id uint32
	for len(kinds) == 0 || kinds[len(kinds)-1] != tunnelwire.End {
		fr := read()
		kinds = append(kinds, fr.Kind)
		id = fr.ID
	}
	if len(kinds) != 3 || kinds[0] != tunnelwire.Request || kinds[1] != tunnelwire.Data {
		t.Fatalf("frames %v, want request, data, end as separate messages", kinds)
	}
	head, err := tunnelwire.EncodeHead(tunnelwire.Response, id, &tunnelwire.Head{Status: http.StatusCreated})
	if err != nil {
		t.Fatal(err)
	}
	for _, fr := range [][]byte{head, tunnelwire.Encode(tunnelwire.Data, id, []byte("pong")), tunnelwire.EncodeEnd(id, nil)} {
		if err := conn.Write(t.Context(), websocket.MessageBinary, fr); err != nil {
			t.Fatal(err)
		}
	}
	if r := <-done; r.status != http.StatusCreated || r.body != "pong" {
		t.Fatalf("public caller got %d %q", r.status, r.body)
	}
	_ = conn.Close(websocket.StatusNormalClosure, "")
}

package transport

import (
	"encoding/json"
	"errors"
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/projectops/projectops-go/internal/wire"
	"github.com/projectops/projectops-go/shared"
)

const bodySecret = "sk-body-secret"

// leakyMarshaler fails with an error quoting what it would have written.
type leakyMarshaler struct{}

func (leakyMarshaler) MarshalJSON() ([]byte, error) {
	return nil, errors.New("cannot write " + bodySecret)
}

// A body that does not encode is a status-0 VALIDATION_ERROR on body, as
// other pre-send mistakes are, sent nowhere, and its text never quotes the
// body (which may hold credentials), on either encoder.
func TestBodyEncodeErrorIsTypedAndQuiet(t *testing.T) {
	t.Parallel()
	for name, req := range map[string]*Request{
		"NaN":              {Body: map[string]any{"key": bodySecret, "t": math.NaN()}},
		"marshaler":        {Body: map[string]any{"key": leakyMarshaler{}}},
		"wire number":      {Body: map[string]any{"n": json.Number(bodySecret)}, Wire: wire.Clear(func(int) int { return 0 })},
		"wire marshaler":   {Body: map[string]any{"key": leakyMarshaler{}}, Wire: wire.Clear(func(int) int { return 0 })},
		"invalid raw JSON": {Body: map[string]any{"raw": json.RawMessage(`{"k":"` + bodySecret)}},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			sent := false
			tr, _ := newTestTransport(t, roundTripFunc(func(*http.Request) (*http.Response, error) {
				sent = true
				return nil, errors.New("not reached")
			}))
			req.Method, req.Route = http.MethodPost, "/projects/{projectId}/hosts"
			req.Params = []string{"p1"}
			err := tr.Do(t.Context(), req, nil)
			var se *shared.Error
			if !errors.As(err, &se) {
				t.Fatalf("err = %T %v, want *shared.Error", err, err)
			}
			if se.StatusCode != 0 || !errors.Is(err, shared.ErrValidation) || se.Details["field"] != "body" {
				t.Errorf("got status %d code %s details %v, want a status-0 VALIDATION_ERROR on body", se.StatusCode, se.Code, se.Details)
			}
			if strings.Contains(err.Error(), bodySecret) {
				t.Errorf("the error quotes the body: %v", err)
			}
			if sent {
				t.Error("a body that does not encode was sent")
			}
		})
	}
}

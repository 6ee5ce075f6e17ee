package svc

import (
	"testing"

	"github.com/projectops/projectops-go/internal/transport"
)

type fake struct{ t *transport.Transport }

func TestRegisterNew(t *testing.T) {
	Register(func(t *transport.Transport) *fake { return &fake{t: t} })
	tr := transport.New(transport.Config{BaseURL: "http://x"})
	if got := New[*fake](tr); got == nil || got.t != tr {
		t.Fatalf("New = %+v", got)
	}
	defer func() {
		if recover() == nil {
			t.Error("New of an unregistered type did not panic")
		}
	}()
	New[*struct{}](tr)
}

package projectopstest

import (
	"testing"

	"github.com/projectops/projectops-go/internal/clientcfg"
)

// InProcessURL is spelt as one literal so that go doc shows its value; it
// must still end with the prefix the double's routes are served under, on
// the host the SDK recognises as the double's in-process one.
func TestInProcessURLEndsWithAPIPrefix(t *testing.T) {
	if want := "http://" + clientcfg.InProcessHost + apiPrefix; InProcessURL != want {
		t.Errorf("InProcessURL = %q, want %q", InProcessURL, want)
	}
}

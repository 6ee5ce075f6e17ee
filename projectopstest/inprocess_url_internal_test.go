package projectopstest

import "testing"

// InProcessURL is spelt as one literal so that go doc shows its value; it
// must still end with the prefix the double's routes are served under.
func TestInProcessURLEndsWithAPIPrefix(t *testing.T) {
	if want := "http://projectops.test" + apiPrefix; InProcessURL != want {
		t.Errorf("InProcessURL = %q, want %q", InProcessURL, want)
	}
}

package clientcfg

import "testing"

// The in-process host gets the hint however it is spelt in the URL (case,
// a trailing dot); every other host gets none.
func TestLookupHintHosts(t *testing.T) {
	t.Parallel()
	for host, want := range map[string]string{
		"projectops.test": inProcessHint, "Projectops.Test.": inProcessHint,
		"api.projectops.test": "", "example.com": "", "": "",
	} {
		if got := lookupHint(host); got != want {
			t.Errorf("lookupHint(%q) = %q; want %q", host, got, want)
		}
	}
}

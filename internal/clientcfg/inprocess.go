package clientcfg

import (
	"net/url"
	"strings"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/option"
)

// InProcessHost is the host of projectopstest.InProcessURL (a test there
// keeps the two equal). Only the double's own transport answers it: the
// name is under the reserved .test TLD, so a real resolver never does, and
// Go's resolver asks DNS anyway, which can take seconds to say so.
const InProcessHost = "projectops.test"

// checkInProcess refuses a base URL on the double's in-process host when no
// transport of the caller's would carry it, so the mistake fails at once and
// says how to fix it rather than after a DNS lookup.
func checkInProcess(c *option.Config, base string) error {
	if c.HTTPClient != nil || c.Transport != nil {
		return nil // the caller's transport may well be the double's
	}
	u, err := url.Parse(base)
	if err != nil || !strings.EqualFold(strings.TrimSuffix(u.Hostname(), "."), InProcessHost) {
		return nil
	}
	return apierr.Invalid("WithBaseURL", "the base URL's host "+InProcessHost+
		" is projectopstest's in-process URL, which only the double's own transport reaches: "+
		"use srv.NewClient(), add option.WithTransport(srv.Transport()), or call srv.Start() first for a loopback URL")
}

package clientcfg

import "strings"

// InProcessHost is the host of projectopstest.InProcessURL (a test there
// keeps the two equal). The double's own transport answers it whatever
// the host; any other client must have it resolved (a proxy, /etc/hosts),
// and without that its DNS lookup fails, often after seconds.
const InProcessHost = "projectops.test"

// inProcessHint is added to a failed lookup of InProcessHost: the likely
// mistake is the URL of a double not started, used without its transport.
// It names the Go fixes and the served double's, for a CLI user too.
const inProcessHint = InProcessHost + " is the projectopstest double's in-process host: " +
	"use srv.NewClient() or option.WithTransport(srv.Transport()), " +
	"or serve the double (srv.Start(), projectops serve) and use the URL it gives"

// lookupHint is the transport's Config.LookupHint: the hint for the
// in-process host (in any case, with or without a trailing dot), none for
// any other.
func lookupHint(host string) string {
	if strings.EqualFold(strings.TrimSuffix(host, "."), InProcessHost) {
		return inProcessHint
	}
	return ""
}

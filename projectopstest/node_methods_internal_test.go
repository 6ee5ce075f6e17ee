package projectopstest

import (
	"strings"
	"testing"
)

// nodeMethods is `require("http").METHODS.join(" ")` as Node 20.20.2
// prints it; the service runs Node 24.14.0, whose list is not known to
// differ.
const nodeMethods = "ACL BIND CHECKOUT CONNECT COPY DELETE GET HEAD LINK LOCK M-SEARCH MERGE MKACTIVITY " +
	"MKCALENDAR MKCOL MOVE NOTIFY OPTIONS PATCH POST PROPFIND PROPPATCH PURGE PUT QUERY REBIND REPORT " +
	"SEARCH SOURCE SUBSCRIBE TRACE UNBIND UNLINK UNLOCK UNSUBSCRIBE"

func TestNodeMethodIsNodesList(t *testing.T) {
	for _, m := range strings.Fields(nodeMethods) {
		if !nodeMethod(m) {
			t.Errorf("nodeMethod(%q) = false; Node accepts it", m)
		}
		for _, other := range []string{strings.ToLower(m), m[:1] + strings.ToLower(m[1:]), m + "X", m[1:]} {
			if nodeMethod(other) && !strings.Contains(" "+nodeMethods+" ", " "+other+" ") {
				t.Errorf("nodeMethod(%q) = true; Node refuses it", other)
			}
		}
	}
	for _, m := range []string{"", "PRI", "FOO", "patch"} {
		if nodeMethod(m) {
			t.Errorf("nodeMethod(%q) = true; Node refuses it", m)
		}
	}
}

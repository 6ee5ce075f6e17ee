package projectopstest

import "net/http"

// nodeMethod reports whether Node's HTTP parser (llhttp) accepts method:
// the service's server refuses any other request line, case-sensitively
// ("patch", which Node's own fetch sends as written, included), before
// its app runs. The list is require("http").METHODS: the service runs
// Node 24.14.0 (its .nvmrc and Dockerfile), and the list was checked
// against Node 20.20.2, the Node at hand; llhttp's list is not known to
// differ between them.
func nodeMethod(method string) bool {
	switch method {
	case "GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS",
		"ACL", "BIND", "CHECKOUT", "CONNECT", "COPY", "LINK", "LOCK", "M-SEARCH", "MERGE",
		"MKACTIVITY", "MKCALENDAR", "MKCOL", "MOVE", "NOTIFY", "PROPFIND", "PROPPATCH", "PURGE",
		"QUERY", "REBIND", "REPORT", "SEARCH", "SOURCE", "SUBSCRIBE", "TRACE", "UNBIND", "UNLINK",
		"UNLOCK", "UNSUBSCRIBE":
		return true
	}
	return false
}

// refuseMethod answers a method nodeMethod refuses as the service's server
// answers a request line its parser refuses: 400, no body, the connection
// closed.
func refuseMethod(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	w.WriteHeader(http.StatusBadRequest)
}

// dropConnect answers CONNECT as the service's Node server does: it has no
// 'connect' listener, so Node destroys the socket without a word. On a
// listener the connection is hijacked and closed; in process, where only
// an upgrade can hijack, the handler aborts, which the transport reports
// as a connection dropped by the server.
func dropConnect(w http.ResponseWriter) {
	if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
		_ = c.Close()
		return
	}
	panic(http.ErrAbortHandler)
}

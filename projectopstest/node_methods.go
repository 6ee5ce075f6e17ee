package projectopstest

import "net/http"

// nodeMethod reports whether Node's HTTP parser (llhttp) accepts method:
// the service's server refuses any other request line, case-sensitively
// ("patch", which Node's own fetch sends as written, included), before
// its app runs. The list is Node 20's require("http").METHODS.
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

package projectopstest

import (
	"math"
	"strconv"
	"strings"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
)

// sessionCursorParam reads the chat-session listing's position. Spec 4.1
// has every GET listing take the previous nextCursor as cursor; the
// reference notes name the same value before. Both are accepted, and cursor
// wins when both are given. nil means the first page.
func sessionCursorParam(q edge.Query) (*sessionPos, *edge.Error) {
	param, c := "cursor", q.Get("cursor")
	if c == "" {
		param, c = "before", q.Get("before")
	}
	if c == "" {
		return nil, nil
	}
	pos, herr := decodeSessionCursor(c, param)
	if herr != nil {
		return nil, herr
	}
	return &pos, nil
}

// decodeSessionCursor accepts the double's own nextCursor or, as the real
// service's cursor is, a bare lastActivityAt in epoch milliseconds (the page
// then starts with the sessions active strictly before it).
func decodeSessionCursor(c, param string) (sessionPos, *edge.Error) {
	if ms, err := strconv.ParseInt(c, 10, 64); err == nil && ms >= 0 {
		return sessionPos{at: ms, ord: math.MinInt}, nil
	}
	raw, herr := edge.DecodeCursor(chatSessionsCursorKind, c, param)
	if herr != nil {
		return sessionPos{}, herr
	}
	at, ord, ok := strings.Cut(raw, ".")
	t, err1 := strconv.ParseInt(at, 10, 64)
	o, err2 := strconv.Atoi(ord)
	if !ok || err1 != nil || err2 != nil {
		return sessionPos{}, edge.Validation(param, "Invalid cursor")
	}
	return sessionPos{at: t, ord: o}, nil
}

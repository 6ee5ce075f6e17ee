package projectopstest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
)

// dropBodyProjectID lets an ingest body carry projectId, as the service
// does: its gateway overwrites the body's value with the path's (or drops
// it for the literal "default"), so the path alone decides the project.
// Any other unknown field is still refused. It reads the body once, under
// limit (one byte over is kept so the caller still sees the overflow), and
// puts back what is left to decode.
func dropBodyProjectID(r *http.Request, limit int) error {
	data, err := io.ReadAll(io.LimitReader(r.Body, int64(limit)+1))
	if err != nil {
		return err
	}
	if len(data) <= limit && bytes.Contains(data, []byte(`"projectId"`)) {
		var top map[string]json.RawMessage
		if json.Unmarshal(data, &top) == nil && top != nil {
			if _, ok := top["projectId"]; ok {
				delete(top, "projectId")
				if b, err := json.Marshal(top); err == nil {
					data = b
				}
			}
		}
	}
	r.Body = io.NopCloser(bytes.NewReader(data))
	return nil
}

package mcpops

import (
	"bytes"
	"encoding/json"
	"math"

	"github.com/projectops/projectops-go/projectopstest/internal/edge"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// CallToolBody is the tools/call body: the reference's fields and the two
// task opt-ins the service's schema declares besides (toolsExecuteSchema
// in server/routes/web/auth.ts), which its /api/v1 route refuses.
type CallToolBody struct {
	servers.CallToolParams
	ServerFields
	// TaskOptions is the 2025-11-25 wire's opt-in: {ttl?: positive int}.
	TaskOptions json.RawMessage `json:"taskOptions"`
	// AllowTaskResult is the io.modelcontextprotocol/tasks wire's.
	AllowTaskResult json.RawMessage `json:"allowTaskResult"`
}

// Validate checks the common fields (ServerFields) and the opt-ins as the
// service's schema does, before the server is looked up: taskOptions an object holding at most a positive
// (safe) integer ttl, allowTaskResult a boolean, not taskOptions with
// allowTaskResult true; then xaaPolicy, as the service's gate after it.
func (b *CallToolBody) Validate() *edge.Error {
	if herr := b.ServerFields.Validate(); herr != nil {
		return herr
	}
	if b.TaskOptions != nil {
		var o map[string]json.RawMessage
		if bytes.Equal(b.TaskOptions, []byte("null")) || json.Unmarshal(b.TaskOptions, &o) != nil {
			return edge.Validation("taskOptions", "taskOptions must be an object")
		}
		for k, v := range o {
			if k != "ttl" {
				return edge.Validation("taskOptions."+k, "taskOptions has no field "+k)
			}
			var ttl float64
			// zod's int() is a safe integer: past 2^53-1 fails the schema.
			if json.Unmarshal(v, &ttl) != nil || ttl <= 0 || ttl != math.Trunc(ttl) || ttl > 1<<53-1 {
				return edge.Validation("taskOptions.ttl", "taskOptions.ttl must be a positive integer")
			}
		}
	}
	if b.AllowTaskResult != nil {
		var allow bool
		if json.Unmarshal(b.AllowTaskResult, &allow) != nil || bytes.Equal(b.AllowTaskResult, []byte("null")) {
			return edge.Validation("allowTaskResult", "allowTaskResult must be a boolean")
		}
		if allow && b.TaskOptions != nil {
			return edge.Validation("allowTaskResult",
				"send either taskOptions (the 2025-11-25 task opt-in) or allowTaskResult (the tasks extension's), not both")
		}
	}
	return b.ServerFields.checkXaaPolicy()
}

// wantsTask reports whether a valid body opts into a task: the service
// refuses when taskOptions is an object (any object, {} too, is truthy in
// JavaScript) or allowTaskResult is true; allowTaskResult false runs the
// tool.
func (b *CallToolBody) wantsTask() bool {
	return b.TaskOptions != nil || bytes.Equal(b.AllowTaskResult, []byte("true"))
}

// errTaskRefused is the service's refusal of a task opt-in on /api/v1, as
// 422: its route throws the code with 400, but its v1 error handler sends
// every code with the code's own status, the one the spec gives.
func errTaskRefused() *edge.Error {
	return edge.NewError(shared.CodeFeatureNotSupported, "tools/call does not run tools as tasks on /api/v1 (taskOptions, allowTaskResult)", nil)
}

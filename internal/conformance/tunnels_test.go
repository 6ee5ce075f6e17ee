package conformance

import (
	"reflect"
	"testing"

	"github.com/projectops/projectops-go/tunnels"
)

// The tunnel types against the reference schemas.
func TestTunnelSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	d := load(t)
	for name, typ := range map[string]reflect.Type{
		"TunnelCreateRequest": reflect.TypeFor[tunnels.CreateParams](),
		"TunnelGrant":         reflect.TypeFor[tunnels.Grant](),
		"TunnelClosed":        reflect.TypeFor[tunnels.Closed](),
	} {
		check(t, name, d.Components.Schemas[name], typ)
	}
}

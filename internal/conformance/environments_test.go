package conformance

import (
	"maps"
	"reflect"
	"testing"

	"github.com/projectops/projectops-go/environments"
)

// The environment types against the reference schemas. The specification
// wins over the reference in one place: the build's provider-specific id is
// named providerBuildId (section 2, "neutral name for a provider-specific
// field") where the reference says e2bBuildId.
func TestEnvironmentSchemasMatchGoTypes(t *testing.T) {
	t.Parallel()
	d := load(t)
	build := *d.Components.Schemas["ComputerEnvironmentBuild"]
	build.Properties = maps.Clone(build.Properties)
	if build.Properties["e2bBuildId"] == nil {
		t.Fatal("reference build schema has no e2bBuildId: revisit the rename")
	}
	build.Properties["providerBuildId"] = build.Properties["e2bBuildId"]
	delete(build.Properties, "e2bBuildId")
	check(t, "ComputerEnvironmentBuild", &build, reflect.TypeFor[environments.Build]())

	cases := map[string]reflect.Type{
		"ComputerEnvironment":              reflect.TypeFor[environments.Environment](),
		"ComputerEnvironmentCreateRequest": reflect.TypeFor[environments.CreateParams](),
		"ComputerEnvironmentUpdateRequest": reflect.TypeFor[environments.UpdateParams](),
		"ComputerEnvironmentDeleted":       reflect.TypeFor[environments.Deleted](),
		"ComputerEnvironmentBuildStarted":  reflect.TypeFor[environments.BuildStarted](),
		"ComputerAttached":                 reflect.TypeFor[environments.ComputerAttached](),
		"ComputerReset":                    reflect.TypeFor[environments.ComputerReset](),
	}
	for name, typ := range cases {
		check(t, name, d.Components.Schemas[name], typ)
	}
	for _, name := range []string{"ComputerEnvironmentPage", "ComputerEnvironmentBuildPage"} {
		s := d.Components.Schemas[name]
		if s == nil || s.Properties["items"] == nil || len(s.Properties) != 2 || s.Properties["nextCursor"] == nil {
			t.Errorf("%s is not the {items, nextCursor} envelope", name)
		}
	}
}

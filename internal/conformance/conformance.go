// Package conformance holds the SDK's wire types against the reference
// service's OpenAPI document (testdata/reference-openapi.json, the 2026-07-09
// version the specification's names follow). The double reuses the same
// types, so one test covers both sides of the wire.
package conformance

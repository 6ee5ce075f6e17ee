// Package shared defines the types every service of the SDK shares: the
// error the API answers with ([Error], its [Code] and [Reason], and the
// sentinels for errors.Is), one page of a listing ([Page]), the
// service's timestamp ([Millis]) and the tool-call match options that
// evals and ingest both send ([MatchOptions]).
//
// The root package re-exports the error types (projectops.Error is
// shared.Error), so most programs never import this package; it is where
// go doc shows their fields and methods.
package shared

// Package projectops is the Go SDK for the Project Operations API: a hosted
// HTTP/JSON API that operates the MCP servers saved in projects (diagnostics,
// tools, prompts, resources, export), hosts, chatboxes, eval suites and runs,
// eval-result ingestion, computer environments and tunnels.
//
// Create one Client and reuse it:
//
//	client, err := projectops.NewClient(option.WithAPIKey("sk_..."))
//
// Without options NewClient reads PROJECTOPS_API_KEY and PROJECTOPS_BASE_URL.
// Options, for the client and for each call alike, are in package option.
// Each resource has a service on the Client (Catalog, Servers, Hosts, ...);
// listings come as one page (ListX) or as an iterator over every item
// (AllX):
//
//	for host, err := range client.Hosts.All(ctx, projectID, nil) {
//		if err != nil {
//			return err
//		}
//		fmt.Println(host.Name)
//	}
//
// Every error answered by the service is a *Error: match its Code and Reason
// with errors.Is and the Err* sentinels, never its Message.
//
// Requests are retried with jittered exponential backoff according to what
// the operation is: reads on network errors, 429 and 5xx (but 501 and 505);
// non-idempotent writes only when the request provably did not run.
// Retry-After is honoured (never retried sooner), plus jitter of up to a
// quarter of it so that callers refused together do not return together,
// up to option.WithMaxRetryAfter.
//
// The package projectopstest provides an in-memory implementation of the
// whole API for tests and local development; the examples run against it.
package projectops

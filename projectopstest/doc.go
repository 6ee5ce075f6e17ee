// Package projectopstest provides an in-memory, stateful implementation of
// the Project Operations API for tests, modelled on pubsub's pstest.
//
// # Use
//
// NewTestServer creates a server that the test's cleanup closes, and
// NewClient gives an SDK client that reaches it in process (no sockets, no
// DNS), authenticated as the owner of Default, the seeded workspace
// (organization, owner, project and API key):
//
//	srv := projectopstest.NewTestServer(t)
//	client, err := srv.NewClient()
//	if err != nil {
//		t.Fatal(err)
//	}
//	page, err := client.Hosts.List(ctx, srv.Default().ProjectID, nil)
//
// HTTP code of your own reaches it in process through Transport (an
// http.RoundTripper) or Client (an *http.Client using it), at URL:
//
//	ws := srv.Default()
//	req, _ := http.NewRequestWithContext(ctx, "GET", srv.URL()+"/me", nil)
//	req.Header.Set("Authorization", "Bearer "+ws.APIKey)
//	resp, err := srv.Client().Do(req)
//
// Until Start, URL is InProcessURL, whose host projectops.test no public
// DNS resolves: only Transport, Client and NewClient reach it, so an SDK
// client of your own needs option.WithTransport(srv.Transport()) with it
// (without one, its calls fail on the lookup, with an error that says how
// to reach the double). Start (or StartAt) serves on loopback, and URL is
// that address from then on, for any client, curl or another process;
// Handler mounts the API on a server of your own. Outside a test,
// NewServer builds a server (Close stops it), and the projectops command's
// "projectops serve" runs one standalone, printing its base URL and keys.
//
// # Routes
//
// It serves every route of the API under /api/v1: the account, projects,
// chat sessions, the public host catalog, harness built-in tools, chatboxes,
// hosts, the server operations (validate, doctor, check-oauth, tools,
// prompts, resources, export, import-tokens) against real MCP servers
// through go-sdk, eval suites and runs with an execution engine,
// eval-ingest, computer environments with builds and a per-user computer,
// and tunnels with a working relay. Routes lists them as SetFault keys.
// Outside /api/v1 it serves the relay's edge and, as the service's web app
// does, the key-management surface /api/web/api-keys, which refuses any
// sk_ bearer 403 before looking the key up or metering it (a revoked or
// made-up key included); neither is in Routes.
//
// # Test hooks
//
// WithClock and Clock (timestamps, the Date of API answers, rate limiting,
// token and upload expiry, eval run deadlines, MCP idle expiry: the last
// two checked when the double next handles a request or a helper such as
// Wait or MCPSessions is called), SetFault (per-route status, Retry-After,
// latency, dropped connection, every N-th request), Requests, Wait,
// MCPSessions, the eval engine's Model and hooks, WithBuildHook, Computer,
// IngestedRuns and IngestedIterations, WithContractCheck, WithEvalStepDelay
// (pacing for clients in another process).
//
// WithControlAPI serves Routes, SetFault, ClearFaults, Requests,
// ResetRequests and Wait over HTTP under ControlPath (/_projectops), as
// JSON, for test suites in other languages (projectops serve --control).
// It is opt-in because control requests need no key and are never
// faulted, rate limited or logged: anyone who reaches the address could
// change how the double answers (a browser page too, were a request with a
// foreign Origin not refused 403). Without it those paths are the
// service's 404.
//
// # Service rules
//
// A Server holds organizations, users and their roles, projects, API keys,
// saved servers, hosts, chatboxes, chat sessions and eval suites, and serves
// the API under /api/v1 with the real service's rules: bearer sk_ keys
// ("Authorization: Bearer <key>", the scheme exactly so) scoped to one
// organization, checked for every path but the public catalog's, guest
// denial, per-key rate limits with Retry-After, a 1 MiB cap on every
// request body (checked before anything else when its length is declared,
// as it is read otherwise), strict request bodies, the
// {code, message, details} error envelope, x-request-id reflection (an
// inbound id of 8 to 128 letters, digits, '-' and '_') and the service
// app's security headers (X-Content-Type-Options, X-Frame-Options,
// X-XSS-Protection, Referrer-Policy) on every answer but the tunnel
// edge's, storage's and those given before the app runs (a 431 head too
// large, the 400 to a method Node does not know, net/http's own
// refusals).
//
// # Request bodies
//
// What a request body may hold is decided by the service's contract, not
// by the SDK's Go types: every body is parsed once and checked against the
// reference OpenAPI documents (2026-07-09, whose names it follows, and
// 2026-08-22) and a JSON Schema of the eval-ingest bodies written from the
// reference notes, embedded in the double; a body is accepted when either
// version accepts it, and a key neither documents is refused where either
// declares the body closed. WithContractCheck holds every response to the
// same documents.
//
// Invalid UTF-8 and repeated keys are refused at any depth, and so are an
// escaped lone surrogate and a number past float64's range (the service's
// JSON.parse keeps the last of repeated keys, a lone surrogate, and
// Infinity, which it then sends on as null). A leading byte-order mark is
// dropped, as the service's text decoding drops it. Which body holding no
// value is no body, {}, is each route's, as the service's handler reads
// it: most (hosts, computer environments, eval suites and runs, servers)
// take one JavaScript's trim() empties (white space, form feed, vertical
// tab, NBSP, the Unicode space separators, U+2028, U+2029, a second mark);
// the eval-ingest routes only an empty one, white space being invalid
// JSON; tunnel create none, an empty body being invalid JSON too. Around a
// value only JSON's white space is allowed, as JSON.parse allows it.
//
// # Differences from the real service
//
// Where the double knowingly differs from the real service:
//   - under WithClock, a 429 refused at the same injected-clock reading as
//     the key's previous request adds a hint to its message (the clock has
//     not moved: step it, or WithRateLimit(0, 0)), since no real-time wait
//     refills the bucket then;
//   - ids are deterministic (prj_1, hst_2, ...) and listings are in
//     creation order; a generated x-request-id is req_1, req_2, ... (the
//     service's is a UUID);
//   - cancelling an eval run refuses body fields, as every bodyless write
//     does here (the reference notes give the route no body); the
//     service's cancel route does not read its body at all;
//   - the 400 VALIDATION_ERROR for deleting a referenced host without
//     force (as the service answers its backend's refusal) carries
//     details.references listing {type, id, name};
//   - cursors are opaque base64url tokens and a bad cursor is a
//     VALIDATION_ERROR naming the parameter that carried it. The real
//     chat-session cursor is a bare lastActivityAt timestamp: /chat-sessions
//     also accepts one, as cursor (spec 4.1, the rule of every GET listing)
//     or before (the reference notes' name; cursor wins when both are
//     given), and its own nextCursor stays opaque so that sessions sharing a
//     millisecond are never skipped;
//   - like the service, every route ignores query parameters it does not
//     know, whatever they hold, and reads the ones it knows as the
//     service's routes do: only '&' separates parameters, the first of a
//     repeated one wins, and a bad percent escape (?cursor=%zz) stays raw
//     text, validated as such (a cursor the double did not make: 400
//     naming it); a listing that serves one page ignores cursor and limit;
//     the computer-environment and build listings, which the service
//     answers in one page, page here under a limit but refuse neither
//     parameter: a cursor they did not make starts from the first page;
//   - project visibility "public" lets every organization member in as a
//     project member; the real service's rules are not published;
//   - host configs are the service's: GET /host-catalog serves its bundled
//     catalog (16 hosts, byte for byte) or, with WithHostCatalogSource, a
//     live one read by its client's rules and cached as its gateway caches
//     it (five minutes, Cache-Control as the gateway sends it); a template
//     seeds the entry less its display keys (theme, when sent, goes into
//     hostContext); every config written is checked by the host config v2
//     validator and stored in canonical form (schemaVersion 2, id lists
//     sorted), content-addressed by the SHA-256 of its JSON. A top-level
//     key host config v2 input does not define is refused with 400
//     VALIDATION_ERROR naming it (details.field config.<key>), as the
//     service's backend validator refuses it; so are a read-back config's
//     own id and schemaVersion (the SDK leaves those two out when it sends
//     a Config). The double's key order in that JSON is its own, so its
//     hostConfigIds do not equal the service's for the same config. Seeds
//     (HostSpec.Config) are completed with the defaults the service's SDK
//     gives a new host before that check; API bodies are not. When
//     config.serverIds is given every id must be a server of the project;
//   - eval runs execute on goroutines the server owns (Close waits for
//     them): a run's tool calls go to the saved servers on one MCP session
//     per server, opened for the run and closed when it ends (as the
//     service's run connects once), and prompt steps to a Model — by
//     default a deterministic one (DefaultModel) rather than a hosted LLM;
//     see WithEvalModel, WithEvalConcurrency, WithEvalRunDeadline,
//     WithEvalTraceDropRate and WithEvalHooks. A run's iterationNumber
//     counts across the whole run; totals in the suite listing count the
//     iterations of finished runs;
//   - eval authoring and launches follow the service: a case is its title
//     and steps (the double reports a test repeating an earlier one of the
//     same request failed, where the service merges the two); a test's
//     matchOptions and a run's matchOptionsOverride are checked, not
//     applied; run create ignores a body projectId, checks the models of the
//     tests naming both model and provider before it reads the suite (the
//     rest once it is read), refuses an environmentId ("" counts as none)
//     without suiteId or with serverIds and, no suite having environments
//     here, any with a suiteId as ENVIRONMENT_NOT_ATTACHED; it scopes the
//     run to caseIds, refused without a suiteId (the double's choice: a
//     suite the request creates has no case ids); with inline tests, caseIds
//     naming none of the suite's cases is the bare rerun's 404 after the
//     tests are authored and the launch's servers saved (on a suiteRerun,
//     only the servers, with refreshSnapshot; the double's choice, where the
//     service's backend decides); it refuses a run over 300 model calls, and
//     authors a replay's tests, and saves its servers, before answering with
//     the existing run; suiteRerun with a suiteId runs the stored cases
//     without upserting the request's tests (their models still checked); a
//     launch's serverIds become the suite's saved servers unless it is a
//     rerun (suiteRerun or a bare suiteId) without refreshSnapshot, with its
//     serverNames only when parallel to them; skillsOverride is taken only
//     as "exclude", and it and namedHostId are ignored (no suite has skills
//     or hosts here);
//   - an iteration's verdict is the service runner's: the first failed
//     assert or interact step stops it, its later steps reported skipped;
//     a tool result with isError fails it (advancedConfig.failOnToolError
//     false turns that off);
//     the toolCalledWith asserts after a prompt step are also its turn's
//     expected calls, met only by calls made in that turn and with
//     partial argument matching (the assert's own row uses its
//     argumentMatching and minCount);
//     a negative test fails when the model calls a tool, not when a
//     toolCall step does, and its assert steps are judged all the same;
//     a toolCall step naming a server the run does not have is a setup
//     failure (iteration status failed, later steps skipped);
//     a run that runs to its end is completed whatever its iterations'
//     verdicts, its result set by its pass criteria, as the service's
//     runner finalizes it (a run whose server's tools cannot be listed is
//     failed, as the runner throws there, though the double still lists
//     each of its iterations, failed with the server's error, where the
//     service runs none);
//   - the run-create model gate is the service's (hosted ids, its known
//     provider-native ids, the open providers custom and ollama, any id with
//     a modelApiKeys entry); the catalogs are the service's at the reference
//     date (data/models.json, with its source) and do not follow later
//     changes. Organization-stored provider keys exist only through
//     SetOrganizationModelKey; a run's provider-native model without a
//     usable key fails in the run (the iteration's error), as the service's
//     does;
//   - harness built-in tools (claude-code, codex) carry the service's keys,
//     names, commonName and toolUseKind at the reference date
//     (data/builtin-tools.json, with its source); their descriptions and
//     input schemas are the double's own wording of the same parameters;
//   - a tunnel's server record holds the grant's URL with its plaintext ?k=
//     secret, as the service's does (reads of the record show it); the
//     request log, debug log and the SDK's printing of records redact it,
//     and any path shown there or in an error masks the secret any
//     tunnel's record carries (a closed one's too) wherever it is pasted;
//   - the relay edge speaks the service's mcpjam-tunnel.v1, but its public
//     URLs are path-based, /tunnels/{slug}/api/mcp/adapter-http/{serverId},
//     where the service's name the slug as a subdomain; a request body past
//     10 MiB answers 413 with the VALIDATION_ERROR envelope, a request past
//     32 in flight on a session 503 SERVER_UNREACHABLE (the service's public
//     answers to both are not documented), and relayed requests never time
//     out (see docs/double.md);
//   - the relay edge resolves a public URL's path (a raw '\' read as '/',
//     dot segments) before it checks the tunnel's scope and relays the
//     resolved path, so nothing outside the scope reaches the host: the
//     double's own safer choice, as the service's edge code is not public
//     (a Node edge relaying req.url would relay the raw, unresolved
//     target); a public URL with a raw '#' in its path is 404, nothing
//     relayed;
//   - raw (unescaped) non-ASCII bytes in a request line's query or path are
//     read as UTF-8, where Node reads the request line as Latin-1, one
//     character per byte: a raw UTF-8 "é" (bytes c3 a9) reaches the
//     service's routes as "Ã©" and the double's as "é" (escaped as %C3%A9,
//     both read "é"); a raw byte that is not UTF-8 in the path is 400
//     here;
//   - a validation error names the offending field in details.field, by
//     its position in the body (tests[0].steps[1].assertion.args), and
//     some their limit in details.limit; the service names it in the
//     message only, so a client must not branch on those two keys;
//   - a server operation's MCP failure carries details.serverId (and
//     mcpCode from the MCP server, capability for FEATURE_NOT_SUPPORTED),
//     and the token import refuses a serverUrl that is not the saved
//     server's (details.serverId): the double's own, the service's carry
//     none and check only that serverUrl is a non-empty string; the
//     service's undocumented per-call oauthAccessToken body field is not
//     read; an imported grant refreshes at the saved server's token
//     endpoint (ServerSpec.OAuthTokenURL), else at the one named by the
//     metadata (RFC 8414, then OpenID Connect Discovery) of the import's
//     authorizationServerUrl: the double fetches that caller-named URL
//     (at most 1 MiB per document, 10 s per request, within the MCP
//     timeout) and posts the refresh there with the import's own client
//     id and secret only (none for a public client), never the saved
//     server's secret, which goes only to the saved endpoint; as go-sdk's
//     discovery does, the issuer and the token endpoint it names must be
//     https (http only on a loopback host or the in-process
//     inprocess.invalid), and a metadata fetch or token request follows at
//     most 3 redirects, all within its own origin (scheme, host and port:
//     a 307 re-posting the refresh token elsewhere is not followed);
//     metadata that got no answer (connection refused, a body cut off,
//     5xx, 408, 429) fails that call with SERVER_UNREACHABLE and is tried again
//     later, any other that names no token endpoint (a redirect not
//     followed included) ends the grant, as does a token endpoint
//     answering with a redirect not followed; OAUTH_REQUIRED's
//     details.serverUrl has a ?k= secret and a userinfo password redacted,
//     where the service sends the saved URL as it is (a tunnel's, secret
//     and all);
//   - tools/call's toolName, prompts/get's promptName and resources/read's
//     uri holding a control character other than tab, or beginning or
//     ending with a space or tab, are 400 VALIDATION_ERROR naming the
//     field, once the server is found and before connecting, whatever the
//     server's transport, where the service passes the value to the server
//     as it is: go-sdk, which the double connects with, cannot carry them
//     intact (it copies them into the Mcp-Name header at protocol
//     2026-07-28);
//   - GET /chat-sessions refuses a status other than active or archived,
//     a limit outside 1-200 and a cursor it did not make (400), and a
//     projectId filter it cannot find (404) or the caller cannot read
//     (403): the reference lists none of these answers (the service's
//     backend behind that route is not public);
//   - an eval-ingest body may carry projectId: it is ignored, the path
//     decides the project (the service's gateway overwrites it);
//   - the doctor runs no HTTP probe before connecting (its probe check is
//     skipped, its probe null): it reads the status of the connection's
//     refusal as the service reads its probe's, the Streamable HTTP
//     attempt's first answer deciding and the SSE attempt's counting
//     only after a 404, 405, 406, 415 or 501 there; a 401 to a caller
//     with no credentials (a grant, or a saved bearer header named
//     exactly "Authorization", else "authorization") is the one
//     oauth_required report, its connection skipped (no SSE stream is
//     opened), even when the SSE fallback would connect. That report's OAUTH_REQUIRED error carries
//     the service's message but no details, where the service's gives its
//     OAuth discovery's registrationStrategies,
//     authorizationServerMetadataUrl and resourceMetadataUrl. The
//     AUTH_ERROR of a refused connection has an empty message where the
//     service's has none (its text is the connection's detail, the
//     double's own words), and statusCode beside its code and no
//     details, as the service's, but not the service's name
//     ("MCPAuthError"); a 403 saying insufficient_scope is AUTH_ERROR
//     too, where the service's client raises an insufficient-scope error
//     its doctor reports under another code;
//   - a browser's request from an origin WithAllowedOrigins does not list
//     is 403 FORBIDDEN in the spec's envelope, where the service's body is
//     {"error": "Forbidden", "message"} (preflights are 204, as there);
//   - every error is an envelope, unclean paths ("//", a trailing slash:
//     404; a raw '\' is first read as '/' and "." and ".." segments, also
//     escaped as %2e, are resolved, as the service's server reads its URL
//     (WHATWG new URL), so /api/v1/projects/x/../../me and /api/v1\me are
//     /api/v1/me and /api/v1/me/. is /api/v1/me/), a raw '#' in the path
//     (404: the service's routes read the fragment as part of the path, and
//     nothing after the '#' is resolved; the message, the request log and
//     the debug log show the path up to the '#', then "#…"), control characters
//     in the path (400) and an Authorization header over 8 KiB (401; not
//     on the key-management surface, which answers on its prefix) included,
//     but for a head over MaxHeaderBytes (431 with no body, as the
//     service's server answers it; the request log has it, see Request),
//     a method Node's HTTP parser does not know, case-sensitively (a
//     lower-case "patch", which Node's fetch sends as written, or "FOO":
//     400 with no body and "Connection: close", before authentication and
//     before the head's size is weighed, as the service's server refuses
//     the request line; in process too, as the 431 is, since the service
//     answers so whatever carries the request; the request log has it;
//     in process a Method of "" is a GET, as net/http's client reads it),
//     a CONNECT, which the service's Node server has no listener for (no
//     answer at all: the connection is closed, in process the request
//     fails as a connection the server dropped, and the request log does
//     not have it), and what net/http refuses before any
//     handler runs on the loopback listener (a request line that does not
//     parse, such as a bad escape in the path, or a head over four times
//     MaxHeaderBytes), which gets its plain-text answer;
//   - on the loopback listener any answer given before the route read the
//     body to its end (a refusal such as a 401 or the declared 1 MiB cap,
//     or a success that ignores a body) is sent at once with "Connection:
//     close", where the service's Node server would keep the connection
//     after discarding the body (the double still reads up to 256 KiB of
//     what is left, within the body timeout, before it closes); answers
//     about the body's content read it first and keep the connection; a
//     full-duplex answer (the tunnel relay) closes it only when its body
//     had not ended when its header was written. A request sent
//     with "Expect: 100-continue" gets no 100 Continue for a body its
//     route does not read: where the service's Node server sends 100
//     Continue before its app runs and reads on after the answer, the
//     double (net/http) does not ask for a body it will not read, and
//     does not take what is left of one for the next request;
//   - every servers operation that reaches the server (validate, doctor,
//     tools, tools/call, prompts, prompts/get, resources, resources/read,
//     export; check-oauth and oauth/import-tokens connect to nothing) runs
//     on an MCP session of its own, ended with the request (closed in the
//     background, so no answer waits on the server's teardown), as the
//     service runs each on an ephemeral connection; but a STDIO server, which the hosted service
//     refuses to run, keeps one session (its process) per user and server,
//     reused across requests and eval runs and closed after
//     WithMCPIdleTimeout unused: session state (a session resource, a
//     counter) carries over between requests only there, or for every
//     server with WithPooledMCPSessions;
//   - every server operation but oauth/import-tokens checks the body
//     fields the service's schema shares among them (serverName,
//     accessScope, mcpProtocolVersion, clientCapabilities, clientInfo,
//     supportedProtocolVersions, scenarioId, accessVersion,
//     oauthAccessToken and the boolean knobs) by its rules, 400
//     VALIDATION_ERROR naming the field, and then ignores them but for
//     serverName, the doctor's label, and firstPageOnly (below); the tools
//     listing's modelId must be a string, and is unused. All but doctor
//     and check-oauth then check xaaPolicy as the service's gate does:
//     present, it must be {idp: "mcpjam"} unless scenarioId names a
//     scenario (whose stored host config, not modelled here, would
//     decide), else 400 VALIDATION_ERROR with details.reason
//     xaa_policy_invalid, before the project is looked up (the service
//     throws it as a 409, which its /api/v1 error handler answers with
//     VALIDATION_ERROR's status, 400); a valid policy is otherwise
//     ignored, the double models no Cross-App Access;
//   - tools, prompts and resources without a cursor, and export, walk every
//     page of the MCP server's listing, as the service's MCP client does:
//     a repeated cursor ends the walk with what it gathered, more than 64
//     pages (the client's cap) fail with 500 INTERNAL_ERROR, and so do
//     items past 32 MiB, a bound of the double's own (one response holds
//     them all); with firstPageOnly true they answer the first page only,
//     with no nextCursor, as the service's client stops after page one (a
//     listing at a cursor is answered as without it);
//   - a STDIO server starts with its spec's environment plus PATH and HOME
//     only, never the environment of the process running the double;
//   - like the service's stdio client, the double skips a STDIO server's
//     stdout lines that are not JSON-RPC messages (a banner, a stray log
//     line, any line go-sdk cannot decode as a message), logging each at
//     debug level by its length only, and ignores blanks after a message
//     on its line (but a line that opens with '{' and passes go-sdk's
//     16 MiB line limit ends the session, as in go-sdk);
//   - like the service's client manager, the double reaches an http server
//     whose URL path ends in /sse over legacy SSE, and any other over
//     Streamable HTTP first, then over SSE on the same URL when that fails
//     (not after an insufficient_scope 403), both attempts within one
//     connect timeout; validate and doctor report the transport that
//     connected in initInfo.transport;
//   - validate and doctor wait DefaultMCPDiagnosticTimeout (10 s), the
//     service's connect timeout for them, to connect and for each of
//     doctor's listings, or WithMCPTimeout's duration when that is
//     shorter (WithMCPDiagnosticTimeout sets it outright); the other
//     operations wait DefaultMCPTimeout (30 s), the service's call
//     timeout;
//   - like the service's fetch, the MCP client follows an HTTP or SSE
//     server's redirects but sends the imported OAuth token and saved
//     Authorization, Proxy-Authorization and Cookie headers only while
//     every hop is on the saved URL's origin (scheme, host and port): once
//     a redirect has left it they stay off, even on a hop back; other
//     saved headers follow every hop;
//   - the contract is the reference documents as written, with the places
//     where the specification or the service's route code says otherwise
//     (CONFLICT and timed_out, provider_a, the optional test-case fields,
//     the 16 host templates, which fields go together) applied on top; a
//     rule the route code enforces beyond the documents is the double's
//     reading of the reference notes;
//   - ingested results are stored as sent (every field of reference-notes
//     3.8; a result's metadata takes any JSON values, as the service's
//     reporter since 2026-08-05 nests predicate verdicts and scores there,
//     where the notes' 07-09 reporter declared scalars) and compressed per
//     append; the eval routes show what they expose
//     of them, and IngestedIteration.Raw the whole row. A token count
//     with a fraction shows as tokensUsed, the exact sum, with usage null
//     (the SDK's usage counts are ints; rounding would invent counts that
//     were not sent); whole counts in any spelling (12.0, 1e3) are exact
//     in both. hostConfig is
//     checked by the host config v2 rules, and a hostConfigHash sent with it
//     must be the service's content address of it (a host's hostConfigId is
//     that address too, matched against the service's own vectors); a reused externalRunId with a different
//     evaluationConfigHash (both given) is 409 CONFLICT; a widget
//     snapshot's widgetHtmlBlobId must name an artifact uploaded to the
//     project and still kept: unlike the service's storage, the double
//     releases an artifact when the last stored run naming it is dropped
//     (WithMaxRuns), and under WithMaxRuns one no run names ArtifactTTL (an
//     hour) after its upload, so a result naming it later is refused as one naming an
//     unknown blob (400 VALIDATION_ERROR); an upload URL, usable once
//     until UploadURLTTL, answers 403 once used or expired, until twice
//     UploadURLTTL after it was minted, then 404 as one never minted
//     (forgotten).
package projectopstest

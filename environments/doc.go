// Package environments manages a project's computer environments: custom,
// Dockerfile-defined images for the project's computers.
//
// An environment starts as a personal draft (sharing "user"), visible to its
// creator only. Build turns its Dockerfile into an image asynchronously
// (HTTP 202): the build moves from queued to building to ready, or to failed
// with an error and a log preview saying why; WaitForBuild follows it. Boot
// attaches a built environment to the caller's computer, which is
// re-provisioned from the environment's pinned image (its installed state is
// wiped); Reset wipes the computer's mutable state back to its current image.
// A project admin can Share a draft with the whole project.
//
// Retries: List, Get, ListBuilds, Update and Share are retried on transient
// failures (Update and Share are idempotent); Create, Build, Boot, Reset and
// Delete are retried only when the request provably did not run (a 429, or
// a connection never made), because repeating them would create a second
// environment or build, wipe the computer again, or turn a successful
// delete into NOT_FOUND.
//
// Errors are *projectops.Error values: another project's environment and
// another user's draft are NOT_FOUND, guests are FORBIDDEN for every write,
// and sharing an environment or deleting a shared one without project admin
// is NOT_FOUND too (the service does not confirm the environment exists),
// while any member may edit and build a shared one. Create and Update refuse a
// Dockerfile the service cannot build (see CreateParams) with
// VALIDATION_ERROR. Boot refuses an environment without a ready build for
// the computer's provider with VALIDATION_ERROR and a message only (see
// Boot).
package environments

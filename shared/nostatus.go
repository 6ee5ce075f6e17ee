package shared

import "errors"

// ErrNoStatus is matched (errors.Is) by the error a waiter (evals'
// Runs.Wait, environments' WaitForBuild) ends with when an answer carries
// no status: a 200 whose body is empty, null or an object without one. No
// poll of such an answer could see a terminal status, so waiting on would
// never end. The error names the route and the answer's request id.
var ErrNoStatus = errors.New("projectops: the response carries no status")

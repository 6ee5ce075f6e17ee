package projectopstest

// Every server the double's own tests start checks its responses against
// the reference contract (WithContractCheck).
func init() { checkEveryResponse = true }

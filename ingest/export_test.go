package ingest

// NewTBRecorderIn is NewTBRecorder as if made by a test binary of the go
// test invocation named invocation: tests stand for two invocations in
// one process.
func NewTBRecorderIn(opt TBOptions, invocation string) *TBRecorder {
	t := NewTBRecorder(opt)
	t.id.invocation = invocation
	return t
}

// GoTestInvocation exposes goTestInvocation.
var GoTestInvocation = goTestInvocation

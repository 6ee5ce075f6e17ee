package ingest_test

import (
	"bytes"
	"strconv"
)

// synthStream is an io.Reader producing a synthetic go test -json stream
// of about n events, generated on the fly (so the input itself takes no
// memory). The mix per test: 70% plain passes with a log line, 10%
// parallel tests (pause/cont), 10% tests with three subtests, 5% skips and
// 5% failures with 40 lines of output; 400 tests per package.
type synthStream struct {
	n, events int
	test, pkg int
	buf       bytes.Buffer
	done      bool
}

func newSynthStream(n int) *synthStream { return &synthStream{n: n} }

func (s *synthStream) Read(p []byte) (int, error) {
	for s.buf.Len() < len(p) && !s.done {
		s.next()
	}
	if s.buf.Len() == 0 {
		return 0, errEOF
	}
	return s.buf.Read(p)
}

const timeField = `{"Time":"2026-11-23T11:35:35.040509395Z",`

func (s *synthStream) ev(action, pkg, test, output string, elapsed float64) {
	b := &s.buf
	b.WriteString(timeField)
	b.WriteString(`"Action":"`)
	b.WriteString(action)
	b.WriteString(`","Package":"`)
	b.WriteString(pkg)
	if test != "" {
		b.WriteString(`","Test":"`)
		b.WriteString(test)
	}
	b.WriteByte('"')
	if output != "" {
		b.WriteString(`,"Output":"`)
		b.WriteString(output)
		b.WriteByte('"')
	}
	if elapsed >= 0 {
		b.WriteString(`,"Elapsed":`)
		b.WriteString(strconv.FormatFloat(elapsed, 'f', -1, 64))
	}
	b.WriteString("}\n")
	s.events++
}

func (s *synthStream) next() {
	pkg := "example.com/big/pkg" + strconv.Itoa(s.pkg)
	if s.test%400 == 0 {
		if s.test > 0 {
			prev := "example.com/big/pkg" + strconv.Itoa(s.pkg-1)
			s.ev("output", prev, "", `FAIL\t`+prev+`\t1.234s\n`, -1)
			s.ev("fail", prev, "", "", 1.234)
		}
		if s.events >= s.n {
			s.done = true
			return
		}
		s.ev("start", pkg, "", "", -1)
		s.pkg++
	}
	pkg = "example.com/big/pkg" + strconv.Itoa(s.pkg-1)
	name := "TestGenerated" + strconv.Itoa(s.test)
	kind := s.test % 20
	s.test++
	s.ev("run", pkg, name, "", -1)
	s.ev("output", pkg, name, `=== RUN   `+name+`\n`, -1)
	switch {
	case kind < 14: // plain pass
		s.ev("output", pkg, name, `    gen_test.go:42: checked 17 cases for `+name+`\n`, -1)
		s.ev("output", pkg, name, `--- PASS: `+name+` (0.01s)\n`, -1)
		s.ev("pass", pkg, name, "", 0.01)
	case kind < 16: // parallel
		s.ev("output", pkg, name, `=== PAUSE `+name+`\n`, -1)
		s.ev("pause", pkg, name, "", -1)
		s.ev("cont", pkg, name, "", -1)
		s.ev("output", pkg, name, `=== CONT  `+name+`\n`, -1)
		s.ev("output", pkg, name, `    gen_test.go:57: parallel work done\n`, -1)
		s.ev("output", pkg, name, `--- PASS: `+name+` (0.20s)\n`, -1)
		s.ev("pass", pkg, name, "", 0.2)
	case kind < 18: // subtests
		for _, sub := range []string{"/empty", "/one", "/many"} {
			s.ev("run", pkg, name+sub, "", -1)
			s.ev("output", pkg, name+sub, `=== RUN   `+name+sub+`\n`, -1)
			s.ev("output", pkg, name+sub, `    --- PASS: `+name+sub+` (0.00s)\n`, -1)
			s.ev("pass", pkg, name+sub, "", 0)
		}
		s.ev("output", pkg, name, `--- PASS: `+name+` (0.00s)\n`, -1)
		s.ev("pass", pkg, name, "", 0)
	case kind == 18: // skip
		s.ev("output", pkg, name, `    gen_test.go:88: skipping: needs a database\n`, -1)
		s.ev("output", pkg, name, `--- SKIP: `+name+` (0.00s)\n`, -1)
		s.ev("skip", pkg, name, "", 0)
	default: // failure with long output
		for i := range 40 {
			s.ev("output", pkg, name, `    gen_test.go:`+strconv.Itoa(100+i)+`: mismatch at index `+strconv.Itoa(i)+
				`:\n\t\twant: \"the quick brown fox jumps over the lazy dog\"\n\t\tgot:  \"the quick brown fox jumped\"\n`, -1)
		}
		s.ev("output", pkg, name, `--- FAIL: `+name+` (0.03s)\n`, -1)
		s.ev("fail", pkg, name, "", 0.03)
	}
}

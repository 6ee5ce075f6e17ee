package ingest

import (
	"encoding/json"
	"strings"
)

// vitestTask is a node of Vitest's older "files" task tree.
type vitestTask struct {
	Type     string       `json:"type"` // suite, test, custom
	Name     string       `json:"name"`
	FullName string       `json:"fullName"`
	Mode     string       `json:"mode"`
	Filepath string       `json:"filepath"`
	Tasks    []vitestTask `json:"tasks"`
	Result   *struct {
		State    string        `json:"state"`
		Duration *float64      `json:"duration"`
		Errors   []vitestError `json:"errors"`
	} `json:"result"`
}

// vitestError is one of a task's errors: an object with a message and a
// stack, or a plain string, as the service's reporter accepts.
type vitestError struct {
	Message string `json:"message"`
	Stack   string `json:"stack"`
}

// UnmarshalJSON reads an error object or a plain string (its message).
func (e *vitestError) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		*e = vitestError{}
		return json.Unmarshal(b, &e.Message)
	}
	type plain vitestError
	return json.Unmarshal(b, (*plain)(e))
}

// vitestFile reads one file of the task tree (decoded whole: one file).
// A file that failed to load, like a suite whose hook failed, carries its
// own errors: it is a failing result, as a Jest file that failed to run.
func (j *jestReader) vitestFile() error {
	var f vitestTask
	if err := j.dec.Decode(&f); err != nil {
		return err
	}
	file := f.Filepath
	if file == "" {
		file = f.Name
	}
	if err := j.taskErrors(file, j.relative(file)+" (failed to run)", &f); err != nil {
		return err
	}
	return j.walk(file, nil, f.Tasks)
}

// taskErrors records a suite's or file's own errors (a load failure, a
// failed beforeAll) as one failing result titled title.
func (j *jestReader) taskErrors(file, title string, t *vitestTask) error {
	if t.Result == nil || len(t.Result.Errors) == 0 {
		return nil
	}
	return j.emit(file, title, "failed", 0, vitestErrors(t))
}

func vitestErrors(t *vitestTask) string {
	var msgs []string
	for _, e := range t.Result.Errors {
		msgs = append(msgs, strings.TrimSpace(e.Message+"\n"+e.Stack))
	}
	return strings.Join(msgs, "\n")
}

func (j *jestReader) walk(file string, path []string, tasks []vitestTask) error {
	for i := range tasks {
		t := &tasks[i]
		title := strings.Join(append(append([]string{}, path...), t.Name), " > ")
		// Only a task of type "test" is a result, as the service's
		// reporter has it; a suite, a custom or an untyped task is only
		// read for the tasks in it.
		if t.Type != "test" {
			if t.Type == "suite" {
				if err := j.taskErrors(file, title+" (suite failed)", t); err != nil {
					return err
				}
			}
			if err := j.walk(file, append(path, t.Name), t.Tasks); err != nil {
				return err
			}
			continue
		}
		// A test is titled by its fullName when it has one; otherwise by
		// its suites' names and its own, joined by " > " (the service's
		// reporter then uses the bare name, which another suite's test
		// of that name would share).
		if t.FullName != "" {
			title = t.FullName
		}
		// A test without a result never finished: it fails, as the
		// service's reporter has it, unless it was skipped.
		state, ms, failure := "", 0.0, "the test did not finish"
		if t.Result != nil {
			state = t.Result.State
			if t.Result.Duration != nil {
				ms = *t.Result.Duration
			}
			failure = vitestErrors(t)
		}
		if t.Mode == "skip" || t.Mode == "todo" {
			state = "skip"
		}
		if err := j.emit(file, title, state, ms, failure); err != nil {
			return err
		}
	}
	return nil
}

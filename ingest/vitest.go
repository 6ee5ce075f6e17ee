package ingest

import "strings"

// vitestTask is a node of Vitest's older "files" task tree.
type vitestTask struct {
	Type     string       `json:"type"` // suite, test, custom
	Name     string       `json:"name"`
	Mode     string       `json:"mode"`
	Filepath string       `json:"filepath"`
	Tasks    []vitestTask `json:"tasks"`
	Result   *struct {
		State    string   `json:"state"`
		Duration *float64 `json:"duration"`
		Errors   []struct {
			Message string `json:"message"`
			Stack   string `json:"stack"`
		} `json:"errors"`
	} `json:"result"`
}

// vitestFile reads one file of the task tree (decoded whole: one file).
func (j *jestReader) vitestFile() error {
	var f vitestTask
	if err := j.dec.Decode(&f); err != nil {
		return err
	}
	file := f.Filepath
	if file == "" {
		file = f.Name
	}
	return j.walk(file, nil, f.Tasks)
}

func (j *jestReader) walk(file string, path []string, tasks []vitestTask) error {
	for _, t := range tasks {
		if t.Type == "suite" {
			if err := j.walk(file, append(path, t.Name), t.Tasks); err != nil {
				return err
			}
			continue
		}
		state, ms, failure := "skip", 0.0, ""
		if t.Result != nil {
			state = t.Result.State
			if t.Result.Duration != nil {
				ms = *t.Result.Duration
			}
			var msgs []string
			for _, e := range t.Result.Errors {
				msgs = append(msgs, strings.TrimSpace(e.Message+"\n"+e.Stack))
			}
			failure = strings.Join(msgs, "\n")
		}
		if t.Mode == "skip" || t.Mode == "todo" {
			state = "skip"
		}
		title := strings.Join(append(append([]string{}, path...), t.Name), " > ")
		if err := j.emit(file, title, state, ms, failure); err != nil {
			return err
		}
	}
	return nil
}

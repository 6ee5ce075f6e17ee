package projectopstest

import (
	"github.com/projectops/projectops-go/catalog"
	"github.com/projectops/projectops-go/evals"
	"github.com/projectops/projectops-go/servers"
	"github.com/projectops/projectops-go/shared"
)

// The fields the reference types as nullable: the service sends null where
// such a field has no value, never leaves it out, so the double's views
// carry them explicitly. Each view embeds the API shape and shadows the
// nullable fields (encoding/json lets the shallower field of a name win).

// orNull is v, or nil (JSON null) when v is its zero value.
func orNull[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

type meJSON struct {
	catalog.Me
	ImageURL          *string `json:"imageUrl"`
	ProfilePictureURL *string `json:"profilePictureUrl"`
}

func meView(m catalog.Me) meJSON {
	return meJSON{Me: m, ImageURL: orNull(m.ImageURL), ProfilePictureURL: orNull(m.ProfilePictureURL)}
}

type projectJSON struct {
	catalog.Project
	Description *string `json:"description"`
	Icon        *string `json:"icon"`
}

type sessionJSON struct {
	catalog.ChatSession
	ProjectID *string `json:"projectId"`
	Title     *string `json:"title"`
}

type serverJSON struct {
	servers.Server
	URL *string `json:"url"`
}

type chatboxJSON struct {
	catalog.Chatbox
	Description *string `json:"description"`
	HostID      *string `json:"hostId"`
	HostName    *string `json:"hostName"`
	HostStyle   *string `json:"hostStyle"`
}

func chatboxJSONOf(c catalog.Chatbox) chatboxJSON {
	return chatboxJSON{Chatbox: c, Description: orNull(c.Description), HostID: orNull(c.HostID),
		HostName: orNull(c.HostName), HostStyle: orNull(c.HostStyle)}
}

type chatboxServerJSON struct {
	catalog.ChatboxServer
	URL *string `json:"url"`
}

type chatboxDetailJSON struct {
	catalog.ChatboxDetail
	Description  *string             `json:"description"`
	HostID       *string             `json:"hostId"`
	HostName     *string             `json:"hostName"`
	HostStyle    *string             `json:"hostStyle"`
	ModelID      *string             `json:"modelId"`
	SystemPrompt *string             `json:"systemPrompt"`
	Temperature  *float64            `json:"temperature"`
	Servers      []chatboxServerJSON `json:"servers"`
}

func chatboxDetailJSONOf(d catalog.ChatboxDetail) chatboxDetailJSON {
	c := d.Chatbox
	v := chatboxDetailJSON{ChatboxDetail: d, Description: orNull(c.Description), HostID: orNull(c.HostID),
		HostName: orNull(c.HostName), HostStyle: orNull(c.HostStyle), ModelID: orNull(d.ModelID), SystemPrompt: orNull(d.SystemPrompt), Temperature: d.Temperature,
		Servers: make([]chatboxServerJSON, len(d.Servers))}
	for i, sv := range d.Servers {
		v.Servers[i] = chatboxServerJSON{ChatboxServer: sv, URL: orNull(sv.URL)}
	}
	return v
}

type runJSON struct {
	evals.Run
	Result      *evals.Result  `json:"result"`
	Notes       *string        `json:"notes"`
	CompletedAt *shared.Millis `json:"completedAt"`
}

func runJSONOf(r evals.Run) runJSON {
	return runJSON{Run: r, Result: orNull(r.Result), Notes: orNull(r.Notes), CompletedAt: orNull(r.CompletedAt)}
}

type iterJSON struct {
	evals.Iteration
	TestCaseID *string        `json:"testCaseId"`
	Result     *evals.Result  `json:"result"`
	Model      *string        `json:"model"`
	Provider   *string        `json:"provider"`
	StartedAt  *shared.Millis `json:"startedAt"`
	DurationMs *float64       `json:"durationMs"`
	TokensUsed *float64       `json:"tokensUsed"`
	Usage      *evals.Usage   `json:"usage"`
	Error      *string        `json:"error"`
}

// iterJSONOf fills the nullable fields; durationMs and tokensUsed are null
// until the iteration has them (a finished iteration's 0 is a value).
func iterJSONOf(it evals.Iteration, finished bool) iterJSON {
	v := iterJSON{Iteration: it, TestCaseID: orNull(it.TestCaseID), Result: orNull(it.Result),
		Model: orNull(it.Model), Provider: orNull(it.Provider), StartedAt: orNull(it.StartedAt),
		Usage: it.Usage, Error: orNull(it.Error)}
	if finished {
		d := it.DurationMs
		v.DurationMs = &d
	}
	if it.Usage != nil {
		n := it.TokensUsed
		v.TokensUsed = &n
	}
	return v
}

type stepJSON struct {
	evals.StepResult
	Reason *string `json:"reason"`
}

type suiteJSON struct {
	evals.Suite
	LatestRun *evals.LatestRun `json:"latestRun"`
}

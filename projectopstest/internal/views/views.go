// Package views holds the double's response shapes where they differ from
// the SDK's types: the fields the reference types as nullable, which the
// service sends as null rather than leaving out.
package views

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

// OrNull is v, or nil (JSON null) when v is its zero value.
func OrNull[T comparable](v T) *T {
	var zero T
	if v == zero {
		return nil
	}
	return &v
}

// Me is GET /me.
type Me struct {
	catalog.Me
	ImageURL          *string `json:"imageUrl"`
	ProfilePictureURL *string `json:"profilePictureUrl"`
	Plan              *string `json:"plan"` // null for an organization without one
}

// MeOf fills Me's nullable fields from m.
func MeOf(m catalog.Me) Me {
	return Me{Me: m, ImageURL: OrNull(m.ImageURL), ProfilePictureURL: OrNull(m.ProfilePictureURL), Plan: OrNull(m.Plan)}
}

// Project is a projects listing item.
type Project struct {
	catalog.Project
	Description *string `json:"description"`
	Icon        *string `json:"icon"`
}

// Session is a chat-session listing item.
type Session struct {
	catalog.ChatSession
	ProjectID *string `json:"projectId"`
	Title     *string `json:"title"`
}

// Server is a saved-servers listing item.
type Server struct {
	servers.Server
	URL *string `json:"url"`
}

// Chatbox is a chatboxes listing item.
type Chatbox struct {
	catalog.Chatbox
	Description *string `json:"description"`
	HostID      *string `json:"hostId"`
	HostName    *string `json:"hostName"`
	HostStyle   *string `json:"hostStyle"`
}

// ChatboxOf fills Chatbox's nullable fields from c.
func ChatboxOf(c catalog.Chatbox) Chatbox {
	return Chatbox{Chatbox: c, Description: OrNull(c.Description), HostID: OrNull(c.HostID),
		HostName: OrNull(c.HostName), HostStyle: OrNull(c.HostStyle)}
}

// ChatboxServer is one server of a chatbox's detail.
type ChatboxServer struct {
	catalog.ChatboxServer
	URL *string `json:"url"`
}

// ChatboxDetail is GET of one chatbox.
type ChatboxDetail struct {
	catalog.ChatboxDetail
	Description  *string         `json:"description"`
	HostID       *string         `json:"hostId"`
	HostName     *string         `json:"hostName"`
	HostStyle    *string         `json:"hostStyle"`
	ModelID      *string         `json:"modelId"`
	SystemPrompt *string         `json:"systemPrompt"`
	Temperature  *float64        `json:"temperature"`
	Servers      []ChatboxServer `json:"servers"`
}

// ChatboxDetailOf fills ChatboxDetail's nullable fields from d.
func ChatboxDetailOf(d catalog.ChatboxDetail) ChatboxDetail {
	c := d.Chatbox
	v := ChatboxDetail{ChatboxDetail: d, Description: OrNull(c.Description), HostID: OrNull(c.HostID),
		HostName: OrNull(c.HostName), HostStyle: OrNull(c.HostStyle), ModelID: OrNull(d.ModelID), SystemPrompt: OrNull(d.SystemPrompt), Temperature: d.Temperature,
		Servers: make([]ChatboxServer, len(d.Servers))}
	for i, sv := range d.Servers {
		v.Servers[i] = ChatboxServer{ChatboxServer: sv, URL: OrNull(sv.URL)}
	}
	return v
}

// Run is an eval run.
type Run struct {
	evals.Run
	Result      *evals.Result  `json:"result"`
	Notes       *string        `json:"notes"`
	CompletedAt *shared.Millis `json:"completedAt"`
}

// RunOf fills Run's nullable fields from r.
func RunOf(r evals.Run) Run {
	return Run{Run: r, Result: OrNull(r.Result), Notes: OrNull(r.Notes), CompletedAt: OrNull(r.CompletedAt)}
}

// Iteration is one iteration of an eval run. durationMs and tokensUsed
// are evals.Iteration's own pointers, null when nil.
type Iteration struct {
	evals.Iteration
	TestCaseID *string        `json:"testCaseId"`
	Result     *evals.Result  `json:"result"`
	Model      *string        `json:"model"`
	Provider   *string        `json:"provider"`
	StartedAt  *shared.Millis `json:"startedAt"`
	Usage      *evals.Usage   `json:"usage"`
	Error      *string        `json:"error"`
}

// IterationOf fills the nullable fields.
func IterationOf(it evals.Iteration) Iteration {
	return Iteration{Iteration: it, TestCaseID: OrNull(it.TestCaseID), Result: OrNull(it.Result),
		Model: OrNull(it.Model), Provider: OrNull(it.Provider), StartedAt: OrNull(it.StartedAt),
		Usage: it.Usage, Error: OrNull(it.Error)}
}

// Step is one step verdict of an iteration.
type Step struct {
	evals.StepResult
	Reason *string `json:"reason"`
}

// Suite is an eval-suites listing item.
type Suite struct {
	evals.Suite
	LatestRun *evals.LatestRun `json:"latestRun"`
}

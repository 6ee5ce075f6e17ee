package projectopstest

import "time"

// Role is an organization role (owner, admin, member, guest) or a project
// role (admin, member, guest).
type Role string

// Roles. Organization owners and admins are implicitly admins of every
// project in their organization; an organization guest cannot use the API at
// all; a project guest may read the project but not write to it.
const (
	RoleOwner  Role = "owner"
	RoleAdmin  Role = "admin"
	RoleMember Role = "member"
	RoleGuest  Role = "guest"
)

func validOrgRole(r Role) bool {
	return r == RoleOwner || r == RoleAdmin || r == RoleMember || r == RoleGuest
}

func validProjectRole(r Role) bool {
	return r == RoleAdmin || r == RoleMember || r == RoleGuest
}

// Project visibilities. A public project is open to every member of its
// organization (as a project member); a private one only to its members and
// the organization's owners and admins.
const (
	VisibilityPrivate = "private"
	VisibilityPublic  = "public"
)

// The records below are the store's rows. They are only touched with
// Server.mu held. ord is a global creation counter: listings sort by it, so
// they are deterministic even when a frozen clock gives equal timestamps.

type orgRec struct {
	id, name, plan string
	createdAt      time.Time
	ord            int
}

type userRec struct {
	id, orgID, email, name string
	role                   Role
	createdAt, updatedAt   time.Time
	ord                    int
}

type projectRec struct {
	id, orgID, name, description, visibility, icon string
	members                                        map[string]Role // userID → project role
	createdAt, updatedAt                           time.Time
	ord                                            int
}

// apiKeyRec stores only the SHA-256 of the secret. orgID is the key's
// organization binding; "" means the key was orphaned.
type apiKeyRec struct {
	id, name, userID, orgID string
	hash                    [32]byte
	revoked                 bool
	createdAt               time.Time
	ord                     int
}

// serverRec is a saved MCP server. backend is reserved for the server
// operations, which attach a live MCP endpoint (in-process, HTTP or stdio)
// to the record; the catalog routes never look at it.
type serverRec struct {
	id, projectID, name, transport, url string
	command                             string
	args                                []string
	env, headers                        map[string]Secret
	clientSecret                        Secret
	useOAuth, enabled                   bool
	oauthScopes                         []string
	createdAt, updatedAt                time.Time
	ord                                 int
	backend                             any
}

type hostRec struct {
	id, projectID, name  string
	config               map[string]any // never mutated once stored: replaced whole
	createdAt, updatedAt time.Time
	ord                  int

	// Derived on every write by setHost, because hosts are read far more
	// often than written: the encoded detail response and the config id.
	detail   []byte
	configID string
}

type chatboxRec struct {
	id, projectID, name, description, mode string
	hostID, hostStyle, modelID             string
	systemPrompt                           string
	temperature                            *float64
	requireToolApproval                    bool
	serverIDs                              []string
	linkToken                              string
	createdAt, updatedAt                   time.Time
	ord                                    int
}

// chatSessionRec is personal when ownerID is set (visibility "private") and
// project-shared otherwise (visibility "project").
type chatSessionRec struct {
	id, orgID, projectID, ownerID, title, status string
	pinned, unread                               bool
	lastActivityAt, createdAt                    time.Time
	ord                                          int
}

// evalSuiteRec is the minimal eval suite: enough for a host to be
// referenced. The eval routes extend it.
type evalSuiteRec struct {
	id, projectID, name  string
	serverIDs            []string
	hostID               string
	createdAt, updatedAt time.Time
	ord                  int
	def                  *suiteDef // tests and defaults (records_evals.go); nil for a bare suite
	lastRun              int       // the last run number given: runs dropped by WithMaxRuns keep theirs
}

package projectopstest

import (
	projectops "github.com/projectops/projectops-go"
	"github.com/projectops/projectops-go/option"
)

// NewClient returns an SDK client that reaches the server in process (no
// sockets), authenticated as the default workspace's owner and ignoring the
// PROJECTOPS_* environment. opts are applied after those defaults, so
// option.WithAPIKey switches identity; WithHTTPClient cannot be used
// because the in-process transport is already set.
func (s *Server) NewClient(opts ...option.RequestOption) (*projectops.Client, error) {
	base := []option.RequestOption{
		option.WithoutEnvironment(),
		option.WithBaseURL(s.URL()),
		option.WithAPIKey(s.Default().APIKey),
		option.WithTransport(s.Transport()),
	}
	return projectops.NewClient(append(base, opts...)...)
}

package projectopstest

import projectops "github.com/projectops/projectops-go"

// NewClient returns an SDK client that reaches the server in process (no
// sockets), authenticated as the default workspace's owner and ignoring the
// PROJECTOPS_* environment. opts are applied after those defaults, so
// projectops.WithAPIKey switches identity; WithHTTPClient cannot be used
// because the in-process transport is already set.
func (s *Server) NewClient(opts ...projectops.Option) (*projectops.Client, error) {
	base := []projectops.Option{
		projectops.WithoutEnvironment(),
		projectops.WithBaseURL(s.URL()),
		projectops.WithAPIKey(s.Default().APIKey),
		projectops.WithTransport(s.Transport()),
	}
	return projectops.NewClient(append(base, opts...)...)
}

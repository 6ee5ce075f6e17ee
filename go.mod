module github.com/projectops/projectops-go

go 1.25.0

require (
	github.com/cenkalti/backoff/v4 v4.3.0 // indirect
	github.com/google/go-cmp v0.7.0 // indirect
	github.com/hashicorp/go-cleanhttp v0.5.2 // indirect
	github.com/jarcoal/httpmock v1.4.2 // indirect
	github.com/modelcontextprotocol/go-sdk v1.8.0 // indirect
	go.uber.org/goleak v1.3.0 // indirect
	golang.org/x/sync v0.20.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)

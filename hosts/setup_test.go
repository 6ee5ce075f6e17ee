package hosts_test

import (
	"testing"

	"go.uber.org/goleak"

	"github.com/projectops/projectops-go/internal/sdktest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The contract-test fixture and assertions every resource package shares.
type (
	fixture  = sdktest.Fixture
	recorder = sdktest.Recorder
)

var (
	t0        = sdktest.T0
	setup     = sdktest.Setup
	must      = sdktest.Must
	wantError = sdktest.WantError
	wantField = sdktest.WantField
)

func collect[T any](seq func(yield func(T, error) bool)) ([]T, error) { return sdktest.Collect(seq) }

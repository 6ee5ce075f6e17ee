package ingest

import (
	"encoding/json"
	"errors"
	"strings"

	"github.com/projectops/projectops-go/internal/apierr"
	"github.com/projectops/projectops-go/internal/hostconfig"
)

// withHostConfigHash is p as the eval wire carries it, as the service's own
// reporter sends it: the host config without the runtime server ids, their
// overrides and the computer, and hostConfigHash its content address (the
// SHA-256 of its canonical form, which the service recomputes and checks).
// A config the service's validator would refuse is a VALIDATION_ERROR
// before anything is sent, as is a HostConfigHash without a HostConfig:
// the pair travels whole or not at all, and sent alone the hash would
// name a config the service never received.
func (p RunParams) withHostConfigHash() (RunParams, error) {
	if p.HostConfig == nil {
		if p.HostConfigHash != "" {
			return p, apierr.Invalid("hostConfigHash", "RunParams.HostConfigHash is set without a HostConfig; leave it empty: the SDK computes it from HostConfig")
		}
		return p, nil
	}
	// Through JSON: the validator reads decoded JSON (float64 numbers,
	// []any, map[string]any), whatever Go values the caller built.
	b, err := json.Marshal(map[string]any(p.HostConfig)) // not HostConfig's redacting MarshalJSON
	if err != nil {
		// Never the encoder's text: it may quote a header value.
		return p, apierr.Invalid("hostConfig", "hostConfig does not encode as JSON"+apierr.EncodeFailure(err))
	}
	var cfg map[string]any
	if err := json.Unmarshal(b, &cfg); err != nil {
		var ute *json.UnmarshalTypeError
		if errors.As(err, &ute) && strings.HasPrefix(ute.Value, "number") {
			return p, apierr.Invalid("hostConfig", "hostConfig holds a number beyond a double's range")
		}
		return p, apierr.Invalid("hostConfig", "hostConfig does not decode as a JSON object")
	}
	if cfg == nil {
		return p, apierr.Invalid("hostConfig", "hostConfig must be a JSON object")
	}
	cfg = hostconfig.ForEvalWire(cfg)
	canon, err := hostconfig.Canonicalize(hostconfig.DeepCopy(cfg).(map[string]any))
	if err != nil {
		return p, apierr.Invalid("hostConfig", err.Error())
	}
	p.HostConfig, p.HostConfigHash = cfg, hostconfig.ID(canon)
	return p, nil
}

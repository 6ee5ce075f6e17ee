package ingest

import (
	"context"
	"log/slog"

	"github.com/projectops/projectops-go/option"
)

// ResumeOptions configure ResumeWithOptions. The zero value is Resume's
// behaviour.
type ResumeOptions struct {
	// Logger receives Resume's warnings (a spooled widget whose upload
	// stored nothing); default slog.Default(), as ReporterOptions.Logger.
	Logger *slog.Logger
	// RequestOptions apply to every request Resume sends, as Resume's opts
	// do (those naming one call are refused).
	RequestOptions []option.RequestOption
}

// ResumeWithOptions is Resume with its logger, and its request options,
// given in opt.
func ResumeWithOptions(ctx context.Context, svc *Service, dir string, opt ResumeOptions) ([]ResumeResult, error) {
	log := opt.Logger
	if log == nil {
		log = slog.Default()
	}
	return resume(ctx, svc, dir, log, opt.RequestOptions)
}

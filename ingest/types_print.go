package ingest

import (
	"fmt"
	"io"
	"log/slog"
	"net/url"
)

// The types below hold secrets through their fields (replay tokens, host
// config headers, URL secrets). Their fields' own Format methods redact
// them, but fmt skips every nested Format once it takes its bad-verb path,
// as it does for a pointer to a type without a Format method printed with
// %s, %q, %x or %d (a []*RunParams under %s). So each has a Format of its
// own, printing itself through a method-less copy with the same verb: the
// fields then go through their own Format.

// Format implements fmt.Formatter with the run's secrets redacted.
func (p RunParams) Format(f fmt.State, verb rune) {
	type RunParams runParamsPlain
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), RunParams(p))
}

// runParamsPlain is RunParams without its methods, for Format.
type runParamsPlain RunParams

// Format implements fmt.Formatter with the run's secrets redacted (it
// would otherwise inherit RunParams's and lose the results).
func (p ReportParams) Format(f fmt.State, verb rune) {
	type ReportParams struct { // RunParams named: embedded, it would lend its Format
		RunParams RunParams
		Results   []Result
	}
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), ReportParams{RunParams: p.RunParams, Results: p.Results})
}

// Format implements fmt.Formatter with the run's secrets redacted.
func (o ReporterOptions) Format(f fmt.State, verb rune) {
	type ReporterOptions reporterOptionsPlain
	_, _ = fmt.Fprintf(f, fmt.FormatString(f, verb), ReporterOptions(o))
}

// reporterOptionsPlain is ReporterOptions without its methods, for Format.
type reporterOptionsPlain ReporterOptions

// LogValue logs the options without the run's secrets (slog's JSON handler
// would otherwise encode them with encoding/json).
func (o ReporterOptions) LogValue() slog.Value {
	return slog.GroupValue(slog.String("project", o.Project), slog.Any("run", o.Run))
}

// Format implements fmt.Formatter: a Reporter prints what names its run,
// never its options' secrets (fmt would print the options it points to
// under %s).
func (r *Reporter) Format(f fmt.State, _ rune) {
	if r == nil || r.opt == nil {
		_, _ = io.WriteString(f, "<nil>")
		return
	}
	_, _ = fmt.Fprintf(f, "ingest.Reporter{Project:%q SuiteName:%q ExternalRunID:%q}",
		r.opt.Project, r.opt.Run.SuiteName, r.opt.Run.ExternalRunID)
}

// LogValue logs what names the Reporter's run.
func (r *Reporter) LogValue() slog.Value {
	if r == nil || r.opt == nil {
		return slog.StringValue("<nil>")
	}
	return slog.GroupValue(slog.String("project", r.opt.Project), slog.String("suiteName", r.opt.Run.SuiteName),
		slog.String("externalRunId", r.opt.Run.ExternalRunID))
}

// shownUploadURL is an upload URL's scheme and host: the rest is the
// capability (a service may carry its token in the query, the double
// carries it in the path), and a userinfo password goes too.
func shownUploadURL(u string) string {
	if u == "" {
		return ""
	}
	p, err := url.Parse(u)
	if err != nil || p.Host == "" {
		return "[unparsable URL redacted]"
	}
	return p.Scheme + "://" + p.Host + "/[REDACTED]"
}

// String shows the upload URL without its token.
func (u UploadURL) String() string {
	return "ingest.UploadURL{OK:" + fmt.Sprint(u.OK) + " UploadURL:" + shownUploadURL(u.UploadURL) + "}"
}

// GoString is String.
func (u UploadURL) GoString() string { return u.String() }

// Format makes every verb print String.
func (u UploadURL) Format(f fmt.State, _ rune) { _, _ = io.WriteString(f, u.String()) }

// LogValue logs the upload URL without its token.
func (u UploadURL) LogValue() slog.Value {
	return slog.GroupValue(slog.Bool("ok", u.OK), slog.String("uploadUrl", shownUploadURL(u.UploadURL)))
}

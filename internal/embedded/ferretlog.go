package embedded

import (
	"context"
	"log/slog"
	"regexp"
	"strings"
)

// ferretLog is the handler FerretDB logs through: what it passes on never
// holds a document. FerretDB's debug records are protocol dumps (whole
// requests and replies: password and token hashes), the filters it
// converts and the SQL it runs with its arguments, so nothing below Info
// goes through, whatever the level of the handler underneath; and since
// Enabled says so, FerretDB does not even build them. A failed command's
// reply is dumped at Warn or Error too, header and body: those dumps are
// replaced by one line with the error's code name, except the reply to
// the driver's endSessions, which every Disconnect sends and FerretDB v1
// does not implement (CommandNotFound), and an index option it lacks,
// which its caller does without (expected): not warnings.
//
// WithAttrs only keeps the attributes until a record is handled: FerretDB
// makes a logger with the SQL arguments (whole documents) for every
// statement it runs, and a text handler would format them at once, for a
// debug record never written (measured: 6.5% of rankd's CPU at 16
// clients, an eighth of an import's).
type ferretLog struct {
	h     slog.Handler
	attrs []slog.Attr
}

// ferretDumps start the messages of FerretDB's protocol dumps
// (internal/clientconn of v1).
var ferretDumps = []string{
	"Request header:", "Request message:",
	"Response header:", "Response message:",
	"Proxy response header:", "Proxy response message:",
	"Header diff:",
}

var codeName = regexp.MustCompile(`"codeName": "(\w+)"`)

// expected reports whether a failed command's reply dump is a refusal its
// caller expects and handles: the driver's endSessions, and an index
// option FerretDB v1 lacks (the rating store's partial indexes, which it
// does without).
func expected(dump string) bool {
	return strings.Contains(dump, "no such command: 'endSessions'") ||
		strings.Contains(dump, `"NotImplemented"`) && strings.Contains(dump, "Index option") && strings.Contains(dump, "is not implemented yet")
}

func (l ferretLog) Enabled(ctx context.Context, level slog.Level) bool {
	return level >= slog.LevelInfo && l.h.Enabled(ctx, level)
}

func (l ferretLog) Handle(ctx context.Context, r slog.Record) error {
	if r.Level < slog.LevelInfo {
		return nil
	}
	for _, p := range ferretDumps {
		if !strings.HasPrefix(r.Message, p) {
			continue
		}
		if !strings.HasSuffix(p, "message:") || expected(r.Message) {
			return nil
		}
		code := "unknown"
		if m := codeName.FindStringSubmatch(r.Message); m != nil {
			code = m[1]
		}
		line := slog.NewRecord(r.Time, r.Level, "command failed (reply not logged: it may hold documents)", r.PC)
		line.AddAttrs(slog.String("code", code))
		r.Attrs(func(a slog.Attr) bool { line.AddAttrs(a); return true })
		return l.inner().Handle(ctx, line)
	}
	return l.inner().Handle(ctx, r)
}

// inner is the handler underneath with the attributes kept so far.
func (l ferretLog) inner() slog.Handler {
	if len(l.attrs) == 0 {
		return l.h
	}
	return l.h.WithAttrs(l.attrs)
}

func (l ferretLog) WithAttrs(a []slog.Attr) slog.Handler {
	return ferretLog{h: l.h, attrs: append(l.attrs[:len(l.attrs):len(l.attrs)], a...)}
}

func (l ferretLog) WithGroup(n string) slog.Handler { return ferretLog{h: l.inner().WithGroup(n)} }

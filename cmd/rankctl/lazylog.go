package main

import (
	"context"
	"log/slog"
)

// lazyAttrs is a slog handler whose WithAttrs only keeps the attributes,
// formatting them when a record is handled. The embedded FerretDB makes a
// logger with attributes for every command, and a text handler formats
// them at once: an eighth of the CPU of a bulk import, for records that
// are never written below Warn.
type lazyAttrs struct {
	h     slog.Handler
	attrs []slog.Attr
}

func (l lazyAttrs) Enabled(ctx context.Context, level slog.Level) bool {
	return l.h.Enabled(ctx, level)
}

func (l lazyAttrs) Handle(ctx context.Context, r slog.Record) error {
	h := l.h
	if len(l.attrs) > 0 {
		h = h.WithAttrs(l.attrs)
	}
	return h.Handle(ctx, r)
}

func (l lazyAttrs) WithAttrs(a []slog.Attr) slog.Handler {
	return lazyAttrs{h: l.h, attrs: append(l.attrs[:len(l.attrs):len(l.attrs)], a...)}
}

func (l lazyAttrs) WithGroup(n string) slog.Handler {
	h := l.h
	if len(l.attrs) > 0 {
		h = h.WithAttrs(l.attrs)
	}
	return lazyAttrs{h: h.WithGroup(n)}
}

package main

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAuditKeyFile: in the zero-setup mode the audit key is made once into
// the data dir's key file (0600), read again at the next start, and never
// logged; RANK_AUDIT_KEY, when set, is used instead and must be long
// enough.
func TestAuditKeyFile(t *testing.T) {
	cfg := defaultConfig()
	cfg.DataDir = t.TempDir()
	logs := &lockedBuffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	k1, err := auditKey(cfg, log)
	if err != nil || len(k1) < 32 {
		t.Fatalf("first start: %q, %v", k1, err)
	}
	fi, err := os.Stat(filepath.Join(cfg.DataDir, AuditKeyFile))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("key file: %v, %v; want mode 0600", fi, err)
	}
	k2, err := auditKey(cfg, log)
	if err != nil || string(k2) != string(k1) {
		t.Fatalf("second start read another key: %v", err)
	}
	if strings.Contains(logs.String(), string(k1)) {
		t.Fatalf("the audit key is in the log:\n%s", logs)
	}
	cfg.AuditKey = "too short"
	if _, err := auditKey(cfg, slog.New(slog.NewTextHandler(io.Discard, nil))); err == nil {
		t.Fatal("a short RANK_AUDIT_KEY was accepted")
	}
	cfg.AuditKey = strings.Repeat("k", 40)
	if k, err := auditKey(cfg, log); err != nil || string(k) != cfg.AuditKey {
		t.Fatalf("RANK_AUDIT_KEY: %q, %v", k, err)
	}
	if strings.Contains(logs.String(), cfg.AuditKey) {
		t.Fatal("RANK_AUDIT_KEY is in the log")
	}
}

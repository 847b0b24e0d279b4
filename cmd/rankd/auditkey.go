package main

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"

	"github.com/weiqi-platform/rank/rating"
)

// AuditKeyFile is the key file in the data dir (zero-setup mode): the
// audit key the embedded database never holds, kept beside it.
const AuditKeyFile = "audit.key"

// auditKey is the key that authenticates the ledger: RANK_AUDIT_KEY when
// set; else, with the embedded store, the data dir's key file (made with
// 32 random bytes at the first start, mode 0600); else none (a warning:
// with MONGO_URI every replica must share one key, so none is made up).
// The key itself is never logged.
func auditKey(cfg Config, log *slog.Logger) ([]byte, error) {
	if cfg.AuditKey != "" {
		if len(cfg.AuditKey) < rating.MinAuditKey {
			return nil, fmt.Errorf("RANK_AUDIT_KEY is %d bytes; it must be at least %d", len(cfg.AuditKey), rating.MinAuditKey)
		}
		log.Info("audit key", "from", "RANK_AUDIT_KEY")
		return []byte(cfg.AuditKey), nil
	}
	if cfg.MongoURI != "" {
		log.Warn("audit trail unkeyed: set RANK_AUDIT_KEY (the same on every replica) so that whoever can write the database cannot forge it")
		return nil, nil
	}
	path := filepath.Join(cfg.DataDir, AuditKeyFile)
	b, err := os.ReadFile(path)
	switch {
	case err == nil:
		key := strings.TrimSpace(string(b))
		if len(key) < rating.MinAuditKey {
			return nil, fmt.Errorf("audit key file %s holds %d bytes; it must hold at least %d", path, len(key), rating.MinAuditKey)
		}
		log.Info("audit key", "from", path)
		return []byte(key), nil
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("audit key file: %w", err)
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return nil, err
	}
	key := hex.EncodeToString(raw)
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("audit key file: %w", err)
	}
	if _, err := f.WriteString(key + "\n"); err != nil {
		_ = f.Close()
		return nil, fmt.Errorf("audit key file: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("audit key file: %w", err)
	}
	log.Info("audit key", "from", path, "created", true)
	return []byte(key), nil
}

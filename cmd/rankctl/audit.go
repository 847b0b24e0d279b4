package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/cmd/internal/wire"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/intake/gamedb"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/rating/ratingdb"
)

func init() {
	commands["audit"] = command{summary: "verify the ledger: scores, formula, hash chains (audit verify)", run: runAudit}
}

const auditUsage = `usage: rankctl audit verify [flags]

Verifies the whole ledger and reports each mismatch: every score equals
its placement plus its ledger, every game's deltas are what the formula
gives for the scores before it, every certified rank is the ledger's
last, and every player's hash chain is intact (an edited or deleted entry
breaks it). Exit 0 when all is well, 1 when something is wrong.

Against a running rankd: --url and --token (an admin's; $RANK_TOKEN).
Directly against the store: --mongo-uri (or $MONGO_URI), or with neither
the embedded store under --data-dir (stop rankd on that data dir first).
The report is kept with the others (GET /api/v1/admin/verify/reports).
Against the store, the entries' audit MACs are checked with --audit-key
($RANK_AUDIT_KEY; with the embedded store the data dir's audit.key), each
rated game's stored content against what its entries bound, and, with
--checkpoints, the last checkpoint of a kept checkpoint file (a rollback
of the store shows there).

flags:
`

func runAudit(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 || args[0] != "verify" {
		fmt.Fprint(stderr, strings.SplitN(auditUsage, "\n", 2)[0]+"\n")
		return exitUsage
	}
	fs := flag.NewFlagSet("rankctl audit verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, auditUsage); fs.PrintDefaults() }
	url := fs.String("url", "", "a running rankd, e.g. http://localhost:8080")
	token := fs.String("token", adminGetenv("RANK_TOKEN"), "an admin's bearer token, with --url ($RANK_TOKEN)")
	mongoURI := fs.String("mongo-uri", adminGetenv("MONGO_URI"), "MongoDB URI ($MONGO_URI); empty opens the embedded store under --data-dir")
	mongoDB := fs.String("mongo-db", envOr("MONGO_DB", "rank"), "database name ($MONGO_DB)")
	dataDir := fs.String("data-dir", envOr("RANK_DATA_DIR", "./data"), "data dir of the embedded store ($RANK_DATA_DIR)")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	auditKey := fs.String("audit-key", adminGetenv("RANK_AUDIT_KEY"), "the audit key ($RANK_AUDIT_KEY); empty: the data dir's audit.key with the embedded store")
	checkpoints := fs.String("checkpoints", "", "a kept checkpoint file (rankd's RANK_AUDIT_CHECKPOINTS): its last checkpoint is checked too")
	if err := fs.Parse(args[1:]); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "rankctl audit verify: unexpected arguments %q\n", fs.Args())
		return exitUsage
	}
	var rep verifyReport
	var err error
	if *url != "" {
		if *token == "" {
			fmt.Fprintln(stderr, "rankctl audit verify: --url needs --token (or $RANK_TOKEN), an admin's")
			return exitUsage
		}
		rep, err = verifyRemote(ctx, strings.TrimRight(*url, "/"), *token)
	} else {
		rep, err = verifyStore(ctx, storeVerify{uri: *mongoURI, db: *mongoDB, dataDir: *dataDir, key: *auditKey, checkpoints: *checkpoints}, stderr)
	}
	if err != nil {
		fmt.Fprintln(stderr, "rankctl audit verify:", err)
		return exitUsage
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		_ = enc.Encode(rep)
	} else {
		for _, m := range rep.Mismatches {
			where := m.Player
			if m.Seq > 0 {
				where = fmt.Sprintf("%s entry %d", m.Player, m.Seq)
			}
			fmt.Fprintf(stdout, "%s: %s: %s\n", where, m.Check, m.Detail)
		}
		verdict := "ok"
		if !rep.OK {
			verdict = fmt.Sprintf("%d mismatches", len(rep.Mismatches))
		}
		fmt.Fprintf(stdout, "verified %d players, %d ledger entries, %d games: %s\n", rep.Players, rep.Entries, rep.Games, verdict)
	}
	if !rep.OK {
		return exitNo
	}
	return exitOK
}

// verifyReport is the report as GET /api/v1/admin/verify answers it.
type verifyReport = api.ReportJSON

func verifyRemote(ctx context.Context, url, token string) (verifyReport, error) {
	req, err := http.NewRequestWithContext(ctx, "GET", url+"/api/v1/admin/verify", nil)
	if err != nil {
		return verifyReport{}, err
	}
	req.Header.Set("Authorization", "Bearer "+token)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return verifyReport{}, err
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 64<<20))
	if err != nil {
		return verifyReport{}, err
	}
	if res.StatusCode != http.StatusOK {
		return verifyReport{}, fmt.Errorf("%s answered %d: %s", url, res.StatusCode, strings.TrimSpace(string(body)))
	}
	var rep verifyReport
	if err := json.Unmarshal(body, &rep); err != nil {
		return verifyReport{}, fmt.Errorf("%s: the answer is no report: %v", url, err)
	}
	return rep, nil
}

// storeVerify is what verifyStore opens and checks with.
type storeVerify struct {
	uri, db, dataDir string
	key              string // "" with the embedded store: the data dir's audit.key
	checkpoints      string // a kept checkpoint file, or ""
}

func verifyStore(ctx context.Context, v storeVerify, stderr io.Writer) (verifyReport, error) {
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	key := []byte(v.key)
	if v.key == "" && v.uri == "" {
		b, err := os.ReadFile(filepath.Join(v.dataDir, "audit.key"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return verifyReport{}, err
		}
		key = []byte(strings.TrimSpace(string(b)))
	}
	var kept []rating.Checkpoint
	if v.checkpoints != "" {
		b, err := os.ReadFile(v.checkpoints)
		if err != nil {
			return verifyReport{}, err
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		var cp rating.Checkpoint
		if err := json.Unmarshal([]byte(lines[len(lines)-1]), &cp); err != nil {
			return verifyReport{}, fmt.Errorf("checkpoint file %s, last line: %w", v.checkpoints, err)
		}
		kept = append(kept, cp)
	}
	m, err := wire.OpenMongo(ctx, v.uri, v.db, v.dataDir, log)
	if err != nil {
		return verifyReport{}, err
	}
	defer func() { _ = m.Close(context.Background()) }()
	store, err := ratingdb.New(ctx, m.DB)
	if err != nil {
		return verifyReport{}, err
	}
	games, err := gamedb.New(ctx, m.DB)
	if err != nil {
		return verifyReport{}, err
	}
	gameHash := func(ctx context.Context, id string) (string, error) {
		g, err := games.Game(ctx, id)
		if errors.Is(err, intake.ErrNotFound) {
			return "", nil
		}
		if err != nil {
			return "", err
		}
		return intake.BoundHash(g), nil
	}
	if len(key) > 0 && len(key) < rating.MinAuditKey {
		return verifyReport{}, fmt.Errorf("the audit key is %d bytes; it must be at least %d", len(key), rating.MinAuditKey)
	}
	svc := rating.NewService(store, rating.ServiceConfig{AuditKey: key, GameHash: gameHash})
	r, err := svc.VerifyAndKeep(ctx, "rankctl:"+time.Now().UTC().Format(time.RFC3339Nano), kept...)
	if err != nil {
		return verifyReport{}, err
	}
	return verifyReport{Report: r, OK: r.OK()}, nil
}

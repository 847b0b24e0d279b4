package api

import (
	"encoding/csv"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// auditRoutes: the audit trail and its verification.
func (s *Server) auditRoutes(authed, admin *gin.RouterGroup) {
	admin.GET("/audit", s.getAudit)
	authed.GET("/players/:username/audit", s.require(playRoles...), s.getPlayerAudit)
	admin.GET("/verify", s.verify)
	admin.GET("/verify/reports", s.verifyReports)
}

// entryJSON is one audit entry: who or what changed whose score, rank or
// certified rank, from what to what, why and when, and its place in the
// player's hash chain.
type entryJSON struct {
	Player          string    `json:"player"`
	Seq             int64     `json:"seq"`
	Cause           string    `json:"cause"`
	CauseID         string    `json:"cause_id"`
	SourceID        string    `json:"source_id,omitempty"`
	Actor           string    `json:"actor,omitempty"`
	Opponent        string    `json:"opponent,omitempty"`
	ScoreBefore     int       `json:"score_before"`
	ScoreAfter      int       `json:"score_after"`
	Delta           int       `json:"delta"`
	RankBefore      string    `json:"rank_before"`
	RankAfter       string    `json:"rank_after"`
	CertifiedBefore string    `json:"certified_before,omitempty"`
	CertifiedAfter  string    `json:"certified_after,omitempty"`
	Reason          string    `json:"reason,omitempty"`
	Evidence        []string  `json:"evidence,omitempty"`
	At              time.Time `json:"at"`
	Prev            string    `json:"prev"`
	Hash            string    `json:"hash"`
}

func toEntryJSON(e rating.LedgerEntry) entryJSON {
	return entryJSON{Player: e.Username, Seq: e.Seq, Cause: e.Cause, CauseID: e.CauseID, SourceID: e.SourceID, Actor: e.Actor,
		Opponent: e.Opponent, ScoreBefore: e.ScoreBefore, ScoreAfter: e.ScoreAfter, Delta: e.Delta, RankBefore: e.RankBefore,
		RankAfter: e.RankAfter, CertifiedBefore: e.CertifiedBefore, CertifiedAfter: e.CertifiedAfter, Reason: e.Reason,
		Evidence: e.Evidence, At: e.At.UTC(), Prev: e.Prev, Hash: e.Hash}
}

// csvHeader is the CSV export's first row, in entryJSON's order.
var csvHeader = []string{"player", "seq", "cause", "cause_id", "source_id", "actor", "opponent", "score_before", "score_after",
	"delta", "rank_before", "rank_after", "certified_before", "certified_after", "reason", "evidence", "at", "prev", "hash"}

func csvRow(e rating.LedgerEntry) []string {
	itoa := strconv.Itoa
	return []string{e.Username, strconv.FormatInt(e.Seq, 10), e.Cause, e.CauseID, e.SourceID, e.Actor, e.Opponent,
		itoa(e.ScoreBefore), itoa(e.ScoreAfter), itoa(e.Delta), e.RankBefore, e.RankAfter, e.CertifiedBefore, e.CertifiedAfter,
		e.Reason, strings.Join(e.Evidence, " "), e.At.UTC().Format(time.RFC3339Nano), e.Prev, e.Hash}
}

// CSVType is the media type of the audit export.
const CSVType = "text/csv"

// auditQuery reads ?cause=&from=&to= and the page parameters.
func auditQuery(c *gin.Context) (rating.AuditQuery, int, error) {
	var cur rating.AuditCursor
	limit, has, err := PageParams(c, &cur)
	if err != nil {
		return rating.AuditQuery{}, 0, err
	}
	q := rating.AuditQuery{Cause: c.Query("cause")}
	if has {
		q.After = &cur
	}
	if q.Cause != "" && !slices.Contains(rating.Causes, q.Cause) {
		return q, 0, badParam("cause", "cause must be one of "+joinQuoted(rating.Causes))
	}
	for _, p := range []struct {
		name string
		to   *time.Time
	}{{"from", &q.From}, {"to", &q.To}} {
		if v := c.Query(p.name); v != "" {
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return q, 0, badParam(p.name, p.name+" must be an RFC 3339 time such as 2026-03-07T00:00:00Z, not "+strconv.Quote(v))
			}
			*p.to = t.UTC()
		}
	}
	// The range is [from, to): one that ends at or before its start is a
	// mistake (swapped dates), not a query whose answer is "nothing".
	if !q.From.IsZero() && !q.To.IsZero() && !q.To.After(q.From) {
		return q, 0, badParam("to", "to ("+q.To.Format(time.RFC3339)+") must be after from ("+q.From.Format(time.RFC3339)+")")
	}
	return q, limit, nil
}

// getAudit: GET /admin/audit?player=&cause=&from=&to= — every change of a
// score, rank or certified rank, newest first; Accept: text/csv exports
// every matching entry.
func (s *Server) getAudit(c *gin.Context) {
	q, limit, err := auditQuery(c)
	if err == nil {
		q.Player, err = queryUsername(c, "player")
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	s.auditAnswer(c, q, limit)
}

// getPlayerAudit: GET /players/{username}/audit — a player's own audit
// entries (any cause), for the player themselves or an admin.
func (s *Server) getPlayerAudit(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	caller, _ := principalOf(c)
	if caller.Username != name && caller.Role != players.RoleAdmin {
		s.fail(c, &Error{Status: http.StatusForbidden, Code: "forbidden", Message: "a player's audit trail is for the player and admins",
			Details: map[string]any{"role": string(caller.Role), "need_role": []string{string(players.RoleAdmin)}}})
		return
	}
	q, limit, err := auditQuery(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	q.Player = name
	s.auditAnswer(c, q, limit)
}

// csvBatch is how many entries the CSV export reads at a time.
const csvBatch = 500

func (s *Server) auditAnswer(c *gin.Context, q rating.AuditQuery, limit int) {
	ctx := c.Request.Context()
	if strings.Contains(c.GetHeader("Accept"), CSVType) {
		// Read the first batch before answering, so a failure is still an
		// error answer.
		q.Limit = csvBatch
		rows, err := s.deps.Ratings.Audit(ctx, q)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.Header("Content-Type", CSVType+"; charset=utf-8")
		c.Header("Content-Disposition", `attachment; filename="audit.csv"`)
		c.Status(http.StatusOK)
		w := csv.NewWriter(c.Writer)
		_ = w.Write(csvHeader)
		for {
			for _, e := range rows {
				_ = w.Write(csvRow(e))
			}
			if len(rows) < csvBatch {
				break
			}
			cur := rating.CursorOf(rows[len(rows)-1])
			q.After = &cur
			if rows, err = s.deps.Ratings.Audit(ctx, q); err != nil {
				s.log.ErrorContext(ctx, "audit export cut short", "request_id", requestIDOf(c), "err", err)
				break
			}
		}
		w.Flush()
		return
	}
	q.Limit = limit + 1
	rows, err := s.deps.Ratings.Audit(ctx, q)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := pageOf(rows, limit, toEntryJSON, func(e rating.LedgerEntry) any { return rating.CursorOf(e) })
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

// verify runs a verification of the whole store now, keeps its report and
// answers it (200 whether or not it found mismatches: the report says).
func (s *Server) verify(c *gin.Context) {
	ctx := c.Request.Context()
	rep, err := s.deps.Ratings.VerifyAndKeep(ctx, "request:"+requestIDOf(c))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toReportJSON(rep))
}

// ReportJSON is a verification report as the API shows it: the report
// and whether it found nothing wrong.
type ReportJSON struct {
	rating.Report
	OK bool `json:"ok"`
}

func toReportJSON(r rating.Report) ReportJSON {
	if r.Mismatches == nil {
		r.Mismatches = []rating.Mismatch{}
	}
	r.At = r.At.UTC()
	return ReportJSON{Report: r, OK: r.OK()}
}

// verifyReports lists the reports kept (the nightly job's and those
// asked for), newest first, up to ?limit=.
func (s *Server) verifyReports(c *gin.Context) {
	var none struct{}
	limit, has, err := PageParams(c, &none)
	if err == nil && has {
		err = badParam("cursor", "the reports list has one page: raise limit")
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	rs, err := s.deps.Ratings.Reports(c.Request.Context(), limit)
	if err != nil {
		s.fail(c, err)
		return
	}
	items := make([]ReportJSON, len(rs))
	for i, r := range rs {
		items[i] = toReportJSON(r)
	}
	c.JSON(http.StatusOK, NewList(items, ""))
}

// checkpointRoutes: the signed checkpoints of the ledger heads (issue 11),
// for an operator to keep outside the database and check later.
func (s *Server) checkpointRoutes(authed *gin.RouterGroup) {
	admin := s.require(players.RoleAdmin)
	authed.GET("/audit/checkpoints", admin, s.getCheckpoints)
	authed.POST("/audit/checkpoints/verify", admin, s.verifyCheckpoint)
}

// getCheckpoints signs every player's ledger head now.
func (s *Server) getCheckpoints(c *gin.Context) {
	cp, err := s.deps.Ratings.Checkpoint(c.Request.Context())
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"checkpoint": cp})
}

// verifyCheckpoint checks a kept checkpoint against the ledger now: every
// head it saw must still be there.
func (s *Server) verifyCheckpoint(c *gin.Context) {
	// The checkpoint itself, or GET's answer as it was saved
	// ({"checkpoint": …}).
	var in struct {
		rating.Checkpoint
		Saved *rating.Checkpoint `json:"checkpoint"`
	}
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	cp := in.Checkpoint
	if in.Saved != nil {
		if !in.At.IsZero() || in.Heads != nil || in.MAC != "" {
			s.fail(c, badJSON("send the checkpoint, or GET's answer with it under \"checkpoint\", not both", nil))
			return
		}
		cp = *in.Saved
	}
	ms, err := s.deps.Ratings.VerifyCheckpoint(c.Request.Context(), cp)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, gin.H{"ok": len(ms) == 0, "mismatches": ms})
}

package api

import (
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

func (s *Server) auditRoutes(authed, admin *gin.RouterGroup) {
	admin.GET("/audit", s.getAudit)
	authed.GET("/players/:username/audit", s.require(playRoles...), s.getPlayerAudit)
	admin.POST("/players/:username/adjust", s.adjust)
	admin.POST("/players/:username/certified-rank", s.placeCertified)
	admin.POST("/players/:username/certified-rank/revoke", s.revokeCertified)
	admin.POST("/games/:id/annul", s.annul)
	admin.GET("/verify", s.verify)
	admin.GET("/verify/reports", s.verifyReports)
	admin.GET("/jobs", s.listJobs)
	admin.POST("/jobs/:name/run", s.runJob)
}

func trimmed(s string) string { return strings.TrimSpace(s) }

func joinQuoted(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = strconv.Quote(x)
	}
	return strings.Join(q, ", ")
}

func badParam(param, msg string) error {
	return &Error{Status: http.StatusBadRequest, Code: "invalid_parameter", Message: msg, Details: map[string]any{"parameter": param}}
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
	return q, limit, nil
}

// getAudit: GET /admin/audit?player=&cause=&from=&to= — every change of a
// score, rank or certified rank, newest first; Accept: text/csv exports
// every matching entry.
func (s *Server) getAudit(c *gin.Context) {
	q, limit, err := auditQuery(c)
	if err == nil && c.Query("player") != "" {
		q.Player, err = players.NormalizeUsername(c.Query("player"))
		if err != nil {
			err = badParam("player", err.Error())
		}
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

// changedJSON answers an admin tool: the players after it and the audit
// entries it wrote.
type changedJSON struct {
	Players []playerJSON `json:"players"`
	Entries []entryJSON  `json:"entries"`
}

func toChangedJSON(ch rating.Changed) changedJSON {
	out := changedJSON{Players: []playerJSON{}, Entries: []entryJSON{}}
	for _, p := range ch.Players {
		out.Players = append(out.Players, toPlayerJSON(p))
	}
	for _, e := range ch.Entries {
		out.Entries = append(out.Entries, toEntryJSON(e))
	}
	return out
}

// changeKey is the idempotency key of an admin's change: the
// Idempotency-Key header (a retry applies it once), or a fresh one.
func changeKey(c *gin.Context, tool, player string) (string, error) {
	k, err := idempotencyKey(c)
	if err != nil {
		return "", err
	}
	if k == "" {
		var b [12]byte
		_, _ = rand.Read(b[:])
		k = hex.EncodeToString(b[:])
	}
	return tool + ":" + player + ":" + k, nil
}

// changeError turns the rating service's refusals of an admin's change
// into HTTP (kept out of the shared table: a game's rating refusals mean
// something else).
func changeError(err error) error {
	var ie *rating.InputError
	switch {
	case errors.As(err, &ie):
		return &Error{Status: http.StatusBadRequest, Code: "invalid_field", Message: ie.Field + " " + ie.Reason,
			Details: map[string]any{"field": ie.Field, "reason": ie.Reason}}
	case errors.Is(err, rating.ErrKeyReused):
		return &Error{Status: http.StatusConflict, Code: "idempotency_key_reused", Message: "the Idempotency-Key names another change"}
	case errors.Is(err, rating.ErrNoCertifiedRank):
		return &Error{Status: http.StatusConflict, Code: "no_certified_rank", Message: "the player has no certified rank to revoke"}
	case errors.Is(err, rating.ErrNotRated):
		return &Error{Status: http.StatusConflict, Code: "not_rated", Message: "the game moved no rating: there is nothing to annul"}
	}
	return err
}

// adjustIn is the body of POST /admin/players/{username}/adjust: one of
// delta, score or rank, and the reason.
type adjustIn struct {
	Delta  *int   `json:"delta"`
	Score  *int   `json:"score"`
	Rank   string `json:"rank"`
	Reason string `json:"reason"`
}

// adjustCause is the cause of an adjustment. Decided: setting a ladder
// rank for a player who has played no rated game is their placement;
// anything else is an adjustment.
func adjustCause(st rating.PlayerState, byRank bool) string {
	if byRank && st.Games == 0 {
		return rating.CausePlacement
	}
	return rating.CauseAdjustment
}

func (s *Server) adjust(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	var in adjustIn
	if err := readReason(c, &in, &in.Reason); err != nil {
		s.fail(c, err)
		return
	}
	given := 0
	for _, set := range []bool{in.Delta != nil, in.Score != nil, in.Rank != ""} {
		if set {
			given++
		}
	}
	if given != 1 {
		s.fail(c, &Error{Status: http.StatusBadRequest, Code: "invalid_field", Message: "give exactly one of delta, score or rank",
			Details: map[string]any{"field": "delta", "reason": "give exactly one of delta, score or rank"}})
		return
	}
	score := in.Score
	if in.Rank != "" {
		r, err := ranks.Parse(in.Rank)
		if err == nil && !r.OnLadder() {
			err = errors.New("is not on the ladder (9k to 9d)")
		}
		var sc int
		if err == nil {
			sc, err = rating.PlacementScore(r)
		}
		if err != nil {
			s.fail(c, &Error{Status: http.StatusBadRequest, Code: "invalid_field", Message: "rank " + strconv.Quote(in.Rank) + ": " + err.Error(),
				Details: map[string]any{"field": "rank", "reason": err.Error()}})
			return
		}
		score = &sc
	}
	ctx := c.Request.Context()
	st, err := s.deps.Ratings.PlayerOrNew(ctx, name)
	if err != nil {
		s.fail(c, err)
		return
	}
	s.change(c, "adjust", rating.ChangeInput{Player: name, Cause: adjustCause(st, in.Rank != ""), Delta: in.Delta, Score: score, Reason: in.Reason})
}

// change applies an admin's change keyed by the request's Idempotency-Key.
func (s *Server) change(c *gin.Context, tool string, in rating.ChangeInput) {
	key, err := changeKey(c, tool, in.Player)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	in.Key, in.Actor = key, by.Username
	ch, err := s.deps.Ratings.Change(c.Request.Context(), in)
	if err != nil {
		s.fail(c, changeError(err))
		return
	}
	c.JSON(http.StatusOK, toChangedJSON(ch))
}

// certifiedIn is the body of POST /admin/players/{username}/certified-rank.
type certifiedIn struct {
	Rank   string `json:"rank"`
	Reason string `json:"reason"`
}

// placeCertified sets a player's certified rank by an audited placement
// (a rank certified elsewhere, a correction); exams set it by themselves.
func (s *Server) placeCertified(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	var in certifiedIn
	if err := readReason(c, &in, &in.Reason); err != nil {
		s.fail(c, err)
		return
	}
	if err := requireFields("rank", in.Rank); err != nil {
		s.fail(c, err)
		return
	}
	r, err := ranks.Parse(in.Rank)
	if err == nil && r.Kind() == ranks.Pro {
		err = errors.New("professional ranks are not certified here")
	}
	if err != nil {
		s.fail(c, &Error{Status: http.StatusBadRequest, Code: "invalid_field", Message: "rank " + strconv.Quote(in.Rank) + ": " + err.Error(),
			Details: map[string]any{"field": "rank", "reason": err.Error()}})
		return
	}
	s.change(c, "certify", rating.ChangeInput{Player: name, Cause: rating.CausePlacement, Certify: r, Reason: in.Reason})
}

func (s *Server) revokeCertified(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	var in reasonIn
	if err := readReason(c, &in, &in.Reason); err != nil {
		s.fail(c, err)
		return
	}
	s.change(c, "revoke", rating.ChangeInput{Player: name, Cause: rating.CauseRevocation, Revoke: true, Reason: in.Reason})
}

// annulJSON answers an annulment.
type annulJSON struct {
	GameID string `json:"game_id"`
	changedJSON
}

// annul reverses a rated game's deltas for both players by compensating
// entries (once per game: annulling again answers the first annulment).
// Games played after it are not recomputed.
func (s *Server) annul(c *gin.Context) {
	var in reasonIn
	if err := readReason(c, &in, &in.Reason); err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	g, err := s.deps.Games.Game(ctx, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	if g.Status != intake.StatusRated && g.Status != intake.StatusFinished {
		s.fail(c, &Error{Status: http.StatusConflict, Code: "not_rated", Message: "the game is " + string(g.Status) + ": there is nothing to annul"})
		return
	}
	by, _ := principalOf(c)
	ch, err := s.deps.Ratings.Annul(ctx, rating.AnnulInput{GameID: g.ID, Actor: by.Username, Reason: in.Reason})
	if err != nil {
		s.fail(c, changeError(err))
		return
	}
	c.JSON(http.StatusOK, annulJSON{GameID: g.ID, changedJSON: toChangedJSON(ch)})
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

type jobJSON struct {
	Name string     `json:"name"`
	Spec string     `json:"spec,omitempty"`
	Next *time.Time `json:"next,omitempty"`
}

func (s *Server) listJobs(c *gin.Context) {
	var items []jobJSON
	for _, j := range s.deps.Jobs.Jobs() {
		out := jobJSON{Name: j.Name, Spec: j.Spec}
		if !j.Next.IsZero() {
			n := j.Next.UTC()
			out.Next = &n
		}
		items = append(items, out)
	}
	c.JSON(http.StatusOK, NewList(items, ""))
}

// runJSON says what became of an on-demand run.
type runJSON struct {
	Job    string    `json:"job"`
	Key    string    `json:"key"`
	At     time.Time `json:"at"`
	Status string    `json:"status"` // done, failed, already_done, running_elsewhere
	Error  string    `json:"error,omitempty"`
}

// runJob runs a scheduled job now, once per Idempotency-Key (the run id:
// a retry with the same key does not run it again), and answers when the
// run ends.
func (s *Server) runJob(c *gin.Context) {
	key, err := idempotencyKey(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	rep, err := s.deps.Jobs.RunNow(c.Request.Context(), c.Param("name"), key)
	switch {
	case errors.Is(err, jobs.ErrUnknownJob):
		err = &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no job " + c.Param("name")}
	case errors.Is(err, jobs.ErrBadJob):
		err = badParam(IdempotencyHeader, "the Idempotency-Key is not a valid run id")
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	out := runJSON{Job: rep.Firing.Job, Key: rep.Firing.Key(), At: rep.Firing.At.UTC()}
	switch {
	case rep.Claim == jobs.Done:
		out.Status = "already_done"
	case rep.Claim == jobs.Held:
		out.Status = "running_elsewhere"
	case rep.Err != nil:
		s.log.WarnContext(c.Request.Context(), "job run failed", "request_id", requestIDOf(c), "key", out.Key, "err", rep.Err)
		out.Status, out.Error = "failed", "the job failed; the server log has why (request id "+requestIDOf(c)+")"
	default:
		out.Status = "done"
	}
	c.JSON(http.StatusOK, out)
}

package api

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// adminRoutes: the admin tools that change a player's score, ladder rank
// or certified rank, or annul a game; each takes a reason and is an audit
// entry.
func (s *Server) adminRoutes(admin *gin.RouterGroup) {
	admin.POST("/players/:username/adjust", s.adjust)
	admin.POST("/players/:username/certified-rank", s.placeCertified)
	admin.POST("/players/:username/certified-rank/revoke", s.revokeCertified)
	admin.POST("/games/:id/annul", s.annul)
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
		s.fail(c, &Error{Status: http.StatusUnprocessableEntity, Code: "invalid_field", Message: "give exactly one of delta, score or rank",
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
			s.fail(c, &Error{Status: http.StatusUnprocessableEntity, Code: "invalid_field", Message: "rank " + strconv.Quote(in.Rank) + ": " + err.Error(),
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
		s.fail(c, err)
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
		s.fail(c, &Error{Status: http.StatusUnprocessableEntity, Code: "invalid_field", Message: "rank " + strconv.Quote(in.Rank) + ": " + err.Error(),
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
	// Corrections are, with recompute, the later games' corrections.
	Corrections []changedJSON `json:"corrections,omitempty"`
}

// annulIn is an annulment's body: the reason, and whether the later games
// of the players it touches are recomputed.
type annulIn struct {
	Reason    string `json:"reason"`
	Recompute bool   `json:"recompute"`
}

// annul reverses a rated game's deltas for both players by compensating
// entries (once per game: annulling again answers the first annulment).
// With recompute, every later game of the players it touches is
// recomputed (rating.Service.AnnulRecompute), one audited correction per
// changed delta; without, later games are left as they were.
func (s *Server) annul(c *gin.Context) {
	var in annulIn
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
	if !g.Ended() {
		s.fail(c, fmt.Errorf("%w: the game is %s", rating.ErrNotRated, g.Status))
		return
	}
	by, _ := principalOf(c)
	ai := rating.AnnulInput{GameID: g.ID, Actor: by.Username, Reason: in.Reason}
	if in.Recompute {
		r, err := s.deps.Ratings.AnnulRecompute(ctx, ai)
		if err != nil {
			s.fail(c, err)
			return
		}
		out := annulJSON{GameID: g.ID, changedJSON: toChangedJSON(r.Annulment), Corrections: []changedJSON{}}
		for _, ch := range r.Corrections {
			out.Corrections = append(out.Corrections, toChangedJSON(ch))
		}
		c.JSON(http.StatusOK, out)
		return
	}
	ch, err := s.deps.Ratings.Annul(ctx, ai)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, annulJSON{GameID: g.ID, changedJSON: toChangedJSON(ch)})
}

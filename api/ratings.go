package api

import (
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// playerJSON is a player's rating as the API shows it: the ladder, and
// the certified rank when they have one (set by an exam or an audited
// placement).
type playerJSON struct {
	Username      string     `json:"username"`
	Score         int        `json:"score"`
	Rank          string     `json:"rank"`
	CertifiedRank string     `json:"certified_rank,omitempty"`
	Glicko        glickoJSON `json:"glicko"`
	Games         int        `json:"games"`
	Wins          int        `json:"wins"`
	Losses        int        `json:"losses"`
	Draws         int        `json:"draws"`
	// RankShown is Rank with a "?" while the player is placing or their
	// Glicko-2 deviation is above rating.UnsettledRD.
	RankShown string                   `json:"rank_shown"`
	Placement rating.PlacementProgress `json:"placement"`
}

func toPlayerJSON(p rating.PlayerState) playerJSON {
	cert := ""
	if !p.Certified.IsZero() {
		cert = p.Certified.String()
	}
	return playerJSON{Username: p.Username, Score: p.Score, Rank: p.Rank().String(), CertifiedRank: cert,
		Glicko: glickoJSON{Rating: p.Glicko.Rating, RD: p.Glicko.RD, Volatility: p.Glicko.Volatility},
		Games:  p.Games, Wins: p.Wins, Losses: p.Losses, Draws: p.Draws,
		RankShown: p.ShownRank(), Placement: p.Progress()}
}

// historyJSON is one ledger entry as the API shows it (api.md's fields
// first).
type historyJSON struct {
	GameID      string     `json:"game_id"`
	SourceID    string     `json:"source_id,omitempty"`
	At          time.Time  `json:"at"`
	Seq         int64      `json:"seq"`
	Delta       int        `json:"delta"`
	ScoreAfter  int        `json:"score_after"`
	RankAfter   string     `json:"rank_after"`
	Cause       string     `json:"cause"`
	ScoreBefore int        `json:"score_before"`
	RankBefore  string     `json:"rank_before"`
	Opponent    string     `json:"opponent,omitempty"`
	Glicko      glickoJSON `json:"glicko"`
}

func toHistoryJSON(e rating.LedgerEntry) historyJSON {
	return historyJSON{GameID: e.CauseID, SourceID: e.SourceID, At: e.At.UTC(), Seq: e.Seq, Delta: e.Delta,
		ScoreAfter: e.ScoreAfter, RankAfter: e.RankAfter, Cause: e.Cause, ScoreBefore: e.ScoreBefore,
		RankBefore: e.RankBefore, Opponent: e.Opponent,
		Glicko: glickoJSON{Rating: e.Glicko.Rating, RD: e.Glicko.RD, Volatility: e.Glicko.Volatility}}
}

// player resolves the {username} of the path to a player: 404 when there
// is none. On false it has answered.
func (s *Server) player(c *gin.Context) (string, bool) {
	name, err := s.deps.Players.Playable(c.Request.Context(), c.Param("username"))
	if errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay) {
		s.fail(c, &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no player " + c.Param("username"), Details: map[string]any{"username": c.Param("username")}})
		return "", false
	}
	if err != nil {
		s.fail(c, err)
		return "", false
	}
	return name, true
}

func (s *Server) getPlayer(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	p, err := s.deps.Ratings.PlayerOrNew(c.Request.Context(), name)
	if err != nil {
		s.fail(c, err)
		return
	}
	a, err := s.deps.Players.Account(c.Request.Context(), name)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toProfileJSON(p, a.DisplayName))
}

// historyCursor is where the next page of a history starts: below seq.
type historyCursor struct {
	Before int64 `json:"b"`
}

func (s *Server) getHistory(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	var cur historyCursor
	limit, _, err := PageParams(c, &cur)
	if err == nil && cur.Before < 0 {
		err = DecodeCursor("!", &cur) // a cursor this server never gives
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	entries, err := s.deps.Ratings.History(c.Request.Context(), name, cur.Before, limit+1)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := pageOf(entries, limit, toHistoryJSON, func(e rating.LedgerEntry) any { return historyCursor{Before: e.Seq} })
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

func (s *Server) getLeaderboard(c *gin.Context) {
	var cur rating.LeaderCursor
	limit, hasCursor, err := PageParams(c, &cur)
	if err != nil {
		s.fail(c, err)
		return
	}
	q := rating.LeaderQuery{Limit: limit + 1}
	if hasCursor {
		q.After = &cur
	}
	if v, ok := c.GetQuery("rank"); ok {
		r, perr := ranks.Parse(v)
		if perr != nil {
			s.fail(c, &Error{Status: http.StatusBadRequest, Code: "invalid_parameter", Message: perr.Error(), Details: map[string]any{"parameter": "rank"}})
			return
		}
		if q.MinScore, q.MaxScore, err = r.Band(); err != nil {
			s.fail(c, &Error{Status: http.StatusBadRequest, Code: "invalid_parameter",
				Message: "rank " + r.String() + " is not on the ladder (9k to 9d)", Details: map[string]any{"parameter": "rank"}})
			return
		}
	}
	rows, err := s.deps.Ratings.Leaderboard(c.Request.Context(), q)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := pageOf(rows, limit, toPlayerJSON, func(p rating.PlayerState) any { return rating.LeaderCursor{Score: p.Score, Username: p.Username} })
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

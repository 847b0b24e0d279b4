package web

import (
	"errors"
	"net/http"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

func (s *Server) home(c *ctx) error {
	c.render(http.StatusOK, "home", "home.title", nil)
	return nil
}

// leaderPage is the size of a leaderboard page.
const leaderPage = 50

type leaderRow struct {
	Place int
	rating.PlayerState
}

type leaderData struct {
	Rank, Query string
	Ranks       []ranks.Rank
	Rows        []leaderRow
	Next        string // the next page's cursor ("" on the last)
	Found       string // the player the name search found exactly
	Page        int
}

func (s *Server) leaderboard(c *ctx) error {
	ctx := c.r.Context()
	qv := c.r.URL.Query()
	d := leaderData{Rank: qv.Get("rank"), Query: strings.TrimSpace(qv.Get("q")), Ranks: ranks.LadderRanks(), Page: 1}
	q := rating.LeaderQuery{Limit: leaderPage + 1}
	if d.Rank != "" {
		r, err := ranks.Parse(d.Rank)
		if err == nil {
			q.MinScore, q.MaxScore, err = r.Band()
		}
		if err != nil {
			return &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "rank"}
		}
	}
	if after := qv.Get("after"); after != "" {
		var cur rating.LeaderCursor
		if err := decodeCursor(after, &cur); err != nil {
			return &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "after"}
		}
		q.After = &cur
		d.Page = atoiDefault(qv.Get("page"), 2)
	}
	if d.Query != "" {
		if name, err := s.d.Players.Playable(ctx, d.Query); err == nil {
			d.Found = name
		}
	}
	rows, err := s.d.Ratings.Leaderboard(ctx, q)
	if err != nil {
		return err
	}
	if len(rows) > leaderPage {
		rows = rows[:leaderPage]
		last := rows[len(rows)-1]
		d.Next = encodeCursor(rating.LeaderCursor{Score: last.Score, Username: last.Username})
	}
	lq := strings.ToLower(d.Query)
	for i, r := range rows {
		if lq != "" && !strings.Contains(strings.ToLower(r.Username), lq) {
			continue
		}
		d.Rows = append(d.Rows, leaderRow{Place: (d.Page-1)*leaderPage + i + 1, PlayerState: r})
	}
	c.render(http.StatusOK, "leaderboard", "leaderboard.title", d)
	return nil
}

// recentGame is one line of a profile's recent games.
type recentGame struct {
	ID, Opponent, Colour, Result, Status string
	Delta                                int
	Rated                                bool
	Annulled                             bool // annulled after it was rated: its delta reversed
	At                                   time.Time
}

type profileData struct {
	Player    rating.PlayerState
	Shown     string
	Certified string
	Graph     graph
	Recent    []recentGame
	Changes   []rating.LedgerEntry // ledger entries that are not games
	Self      bool
	Display   string // the display name ("" for none)
}

// profileHistory is how many of the newest ledger entries the profile
// reads for its lists (the deltas of its recent games, its other
// changes); the graph reads the rating history itself.
const profileHistory = 50

// ledgerPage is how many entries the game page reads at a time, from a
// player's newest down to the game's.
const ledgerPage = 20

// recentGames is how many games the profile lists.
const recentGames = 10

func (s *Server) profile(c *ctx) error {
	ctx := c.r.Context()
	name, err := s.d.Players.Playable(ctx, c.r.PathValue("username"))
	if errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay) {
		return errNotFound
	}
	if err != nil {
		return err
	}
	st, err := s.d.Ratings.PlayerOrNew(ctx, name)
	if err != nil {
		return err
	}
	entries, err := s.d.Ratings.History(ctx, name, 0, profileHistory)
	if err != nil {
		return err
	}
	d := profileData{Player: st, Shown: st.ShownRank(), Self: c.authed && c.user.Username == name}
	since := s.now()
	if a, err := s.d.Players.Account(ctx, name); err == nil {
		d.Display, since = a.DisplayName, a.CreatedAt
	}
	if len(entries) > 0 && entries[len(entries)-1].At.Before(since) {
		since = entries[len(entries)-1].At // placed before the account was (an import)
	}
	if !st.Certified.IsZero() {
		d.Certified = st.Certified.String()
	}
	if d.Graph, err = s.historyGraph(c, name, since, entries); err != nil {
		return err
	}
	deltas := map[string]rating.LedgerEntry{}
	annulled := map[string]bool{} // the games of the entries read whose annulment is among them
	for _, e := range entries {
		if e.Cause == rating.CauseGame {
			deltas[e.CauseID] = e
			continue
		}
		if e.Cause == rating.CauseAnnulment {
			annulled[e.CauseID] = true
		}
		if len(d.Changes) < recentGames {
			d.Changes = append(d.Changes, e)
		}
	}
	gs, err := s.d.Games.PlayerGames(ctx, intake.GamesQuery{Player: name, Limit: recentGames})
	if err != nil {
		return err
	}
	for _, g := range gs {
		rg := gameRow(name, g, deltas)
		rg.Annulled = annulled[g.ID]
		d.Recent = append(d.Recent, rg)
	}
	c.render(http.StatusOK, "profile", "profile.title", d)
	return nil
}

type gameData struct {
	Game      intake.StoredGame
	Board     boardView
	Frames    string // JSON for the stepper
	Result    string
	Deltas    map[string]int
	HasDeltas bool
	Rules     string
	Moves     int
	Dead      int
	Score     *games.Score
	// CountUnverified: a game server's claim was taken on trust (flag
	// count_unverified); Computed is what the count gave.
	CountUnverified bool
	Computed        string
	CanAbort        bool      // the caller plays the pending game, still abortable
	AbortBy         time.Time // until when
	// Annulled: an admin annulled the rated game; its deltas were
	// reversed, so they are shown as such.
	Annulled *rating.Annulled
}

func (s *Server) game(c *ctx) error {
	g, err := s.d.Games.Game(c.r.Context(), c.r.PathValue("id"))
	if err != nil {
		return err
	}
	d := gameData{Game: g, Deltas: map[string]int{}}
	if c.authed && (c.user.Username == g.Black || c.user.Username == g.White) {
		d.AbortBy, d.CanAbort = s.d.Games.AbortableUntil(g)
	}
	if g.Record != nil {
		d.Rules = g.Record.Rules.String()
		d.Moves = len(g.Record.Moves)
		d.Board, d.Frames = boardOf(g.Record, g.Verdict, c.lang)
		d.Dead = len(d.Board.Dead)
	}
	if v := g.Verdict; v != nil {
		d.Result, d.Score = v.Result, v.Score
		d.CountUnverified, d.Computed = v.CountUnverified, v.Computed
	}
	if g.Ended() {
		a, ok, err := s.d.Ratings.AnnulledGame(c.r.Context(), g.ID)
		if err != nil {
			return err
		}
		if ok {
			d.Annulled = &a
		}
	}
	if g.Status == intake.StatusRated {
		for _, p := range []string{g.Black, g.White} {
			e, ok, err := s.gameEntry(c, p, g)
			if err != nil {
				return err
			}
			if ok {
				d.Deltas[p], d.HasDeltas = e.Delta, true
			}
		}
	}
	c.render(http.StatusOK, "game", "game.title", d)
	return nil
}

func (s *Server) gameSGF(c *ctx) error {
	g, err := s.d.Games.Game(c.r.Context(), c.r.PathValue("id"))
	if err != nil {
		return err
	}
	c.w.Header().Set("Content-Type", "application/x-go-sgf")
	c.w.Header().Set("Content-Disposition", `attachment; filename="`+safeFile(g.ID)+`.sgf"`)
	_, _ = c.w.Write(g.SGF())
	return nil
}

// safeFile keeps letters, digits, '-' and '_' of a file name.
func safeFile(s string) string {
	b := []byte(s)
	out := b[:0]
	for _, ch := range b {
		if ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z' || ch >= '0' && ch <= '9' || ch == '-' || ch == '_' {
			out = append(out, ch)
		}
	}
	if len(out) == 0 {
		return "game"
	}
	return string(out)
}

// gameEntry finds the player's ledger entry of game g, reading their
// ledger from the newest entry down, a page at a time, until the entries
// are older than the game.
func (s *Server) gameEntry(c *ctx, player string, g intake.StoredGame) (rating.LedgerEntry, bool, error) {
	var before int64
	for {
		es, err := s.d.Ratings.History(c.r.Context(), player, before, ledgerPage)
		if err != nil {
			return rating.LedgerEntry{}, false, err
		}
		for _, e := range es {
			if e.Cause == rating.CauseGame && e.CauseID == g.ID {
				return e, true, nil
			}
			if e.At.Before(g.CreatedAt) {
				return rating.LedgerEntry{}, false, nil
			}
		}
		if len(es) < ledgerPage {
			return rating.LedgerEntry{}, false, nil
		}
		before = es[len(es)-1].Seq
	}
}

// historyGraph draws the player's rating history (rating.RatingHistory:
// the score each day, or each week past half a year) from since (when
// the account was made) to today in the viewer's time zone, with its
// marks.
func (s *Server) historyGraph(c *ctx, name string, since time.Time, entries []rating.LedgerEntry) (graph, error) {
	loc := c.zone()
	now := s.now()
	from := since
	if from.After(now) {
		from = now
	}
	if limit := now.AddDate(0, 0, -(rating.MaxSeriesDays - 1)); from.Before(limit) {
		from = limit
	}
	step := rating.StepDay
	if now.Sub(from) > 183*24*time.Hour {
		step = rating.StepWeek
	}
	ser, err := s.d.Ratings.RatingHistory(c.r.Context(), name, rating.Midnight(from, loc), rating.Midnight(now, loc), step)
	if err != nil {
		return graph{}, err
	}
	var pts []graphPoint
	if len(ser.Points) < 3 {
		// Too few days for a line: each ledger entry is a point.
		for i := len(entries) - 1; i >= 0; i-- {
			e := entries[i]
			if len(pts) == 0 {
				pts = append(pts, graphPoint{at: e.At, score: e.ScoreBefore})
			}
			pts = append(pts, graphPoint{at: e.At, score: e.ScoreAfter, cause: e.Cause, certified: e.CertifiedAfter})
		}
		if len(pts) > 0 {
			return drawGraph(c.lang, loc, pts), nil
		}
	}
	for _, p := range ser.Points {
		pts = append(pts, graphPoint{at: p.End, score: p.Score, day: p.Date})
	}
	for _, m := range ser.Marks {
		switch m.Cause {
		case rating.CauseExam, rating.CausePlacement, rating.CauseAdjustment, rating.CauseRevocation:
			pts = append(pts, graphPoint{at: m.At, score: m.ScoreAfter, cause: m.Cause, certified: m.CertifiedAfter})
		}
	}
	return drawGraph(c.lang, loc, sortPoints(pts)), nil
}

// gameRow is a game as a line of a player's list: the opponent, colour,
// result and, when the ledger has it, the delta.
func gameRow(name string, g intake.StoredGame, deltas map[string]rating.LedgerEntry) recentGame {
	rg := recentGame{ID: g.ID, Colour: "black", Opponent: g.White, At: g.CreatedAt, Status: string(g.Status)}
	if g.White == name {
		rg.Colour, rg.Opponent = "white", g.Black
	}
	if !g.PlayedAt.IsZero() {
		rg.At = g.PlayedAt
	}
	if e, ok := deltas[g.ID]; ok {
		rg.Delta, rg.Result, rg.Rated = e.Delta, e.Result, true
	} else if v := g.Verdict; v != nil && g.Ended() {
		switch {
		case v.Winner == games.Empty:
			rg.Result = rating.ResultDraw
		case (v.Winner == games.White) == (rg.Colour == "white"):
			rg.Result = rating.ResultWin
		default:
			rg.Result = rating.ResultLoss
		}
	}
	return rg
}

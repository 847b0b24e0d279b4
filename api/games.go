package api

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// SGFType is the media type of SGF, in and out.
const SGFType = "application/x-go-sgf"

// gameIn is the JSON body of POST /api/v1/games. Omitted size, rules, komi
// and handicap take the pending game's (with game_id) or the defaults.
type gameIn struct {
	SourceID    string   `json:"source_id"`
	GameID      string   `json:"game_id"`
	Black       string   `json:"black"`
	White       string   `json:"white"`
	BlackID     string   `json:"black_id"`
	WhiteID     string   `json:"white_id"`
	Size        *int     `json:"size"`
	Rules       string   `json:"rules"`
	Komi        *float64 `json:"komi"`
	Handicap    *int     `json:"handicap"`
	Setup       []string `json:"setup"`
	Moves       []string `json:"moves"`
	SGF         string   `json:"sgf"`
	End         string   `json:"end"`
	EndBy       string   `json:"end_by"`
	Escaped     string   `json:"escaped"`
	Dead        []string `json:"dead"`
	Result      string   `json:"result"`
	Rated       *bool    `json:"rated"`
	TimeControl string   `json:"time_control"`
}

func badRecord(field, format string, args ...any) error {
	return &games.InvalidRecordError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// record turns the JSON body into a record (nil when it carries SGF).
func (in gameIn) record() (*games.Record, error) {
	if in.SGF != "" {
		if len(in.Moves) > 0 || len(in.Setup) > 0 || in.End != "" || len(in.Dead) > 0 || in.Result != "" || in.Size != nil || in.Rules != "" || in.Komi != nil || in.Handicap != nil {
			return nil, badRecord("sgf", "give the game either as sgf or as fields (size, rules, komi, handicap, moves, end, result, dead), not both")
		}
		return nil, nil
	}
	r := &games.Record{Komi: math.NaN(), Handicap: -1, Result: in.Result}
	if in.Size != nil {
		// Given, so never the unset 0 that takes the default.
		if *in.Size < games.MinSize || *in.Size > games.MaxSize {
			return nil, badRecord("size", "board size must be %d to %d, not %d", games.MinSize, games.MaxSize, *in.Size)
		}
		r.Size = *in.Size
	}
	if in.Rules != "" {
		rs, err := games.ParseRuleset(in.Rules)
		if err != nil {
			return nil, err
		}
		r.Rules = rs
	}
	if in.Komi != nil {
		r.Komi = *in.Komi
	}
	if in.Handicap != nil {
		if *in.Handicap < 0 {
			return nil, badRecord("handicap", "handicap %d is negative", *in.Handicap)
		}
		r.Handicap = *in.Handicap
	}
	for i, s := range in.Setup {
		var st games.Stone
		if err := st.UnmarshalText([]byte(s)); err != nil {
			return nil, badRecord("setup", "setup stone %d: %q is not like \"B pd\"", i+1, s)
		}
		r.Setup = append(r.Setup, st)
	}
	// Plain points alternate colours from the side that moves first:
	// Black, or White after two or more handicap stones.
	next := games.Black
	if in.Handicap != nil && *in.Handicap >= 2 {
		next = games.White
	}
	for i, s := range in.Moves {
		m, err := parseMove(s, next)
		if err != nil {
			return nil, badRecord("moves", "move %d: %v", i+1, err)
		}
		r.Moves = append(r.Moves, m)
		next = m.Color.Opponent()
	}
	r.End = games.EndReason(strings.ToLower(in.End))
	if in.Escaped != "" {
		c, err := games.ParseColor(in.Escaped)
		if err != nil || c == games.Empty {
			return nil, badRecord("escaped", "%q is not black or white", in.Escaped)
		}
		if r.End == "" {
			r.End = games.EndEscape
		}
		r.EndBy = c
	}
	if in.EndBy != "" {
		c, err := games.ParseColor(in.EndBy)
		if err != nil || c == games.Empty {
			return nil, badRecord("end_by", "%q is not black or white", in.EndBy)
		}
		r.EndBy = c
	}
	r.InferEndBy()
	for i, s := range in.Dead {
		p, err := games.ParseSGFPoint(s)
		if err != nil {
			return nil, badRecord("dead", "dead stone %d: %q is not an SGF point", i+1, s)
		}
		r.Dead = append(r.Dead, p)
	}
	return r, nil
}

// parseMove reads "pd", "" or "tt" (a pass), or "B pd" / "W pass".
func parseMove(s string, next games.Color) (games.Move, error) {
	s = strings.TrimSpace(s)
	if strings.Contains(s, " ") {
		var m games.Move
		err := m.UnmarshalText([]byte(s))
		return m, err
	}
	if s == "" || s == "tt" || strings.EqualFold(s, "pass") {
		return games.PassMove(next), nil
	}
	p, err := games.ParseSGFPoint(s)
	if err != nil {
		return games.Move{}, err
	}
	return games.Play(next, p), nil
}

// notSGF refuses an SGF record sent as JSON or as a form (curl's
// --data-binary without a Content-Type), naming the type to send instead
// of a JSON syntax error at its "(".
func notSGF(c *gin.Context, mt string) error {
	br := bufio.NewReader(c.Request.Body)
	c.Request.Body = struct {
		io.Reader
		io.Closer
	}{br, c.Request.Body}
	for {
		b, err := br.Peek(1)
		if err != nil || len(b) == 0 {
			return nil
		}
		switch b[0] {
		case ' ', '\t', '\r', '\n':
			_, _ = br.ReadByte()
			continue
		case '(':
			if mt == "" {
				mt = "none"
			}
			return &Error{Status: http.StatusUnsupportedMediaType, Code: "unsupported_media_type",
				Message: "the body is an SGF record (it starts with \"(\") sent as " + strconv.Quote(mt) + "; send it with Content-Type: " + SGFType,
				Details: map[string]any{"content_type": mt, "takes": SGFType}}
		}
		return nil
	}
}

// submission reads either body form: JSON, or raw SGF with the source_id
// (and optionally game_id, rated) in the query.
func (s *Server) submission(c *gin.Context) (intake.Submission, error) {
	by, _ := principalOf(c)
	mt, _, _ := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if mt == SGFType {
		body, err := io.ReadAll(c.Request.Body)
		if err != nil {
			return intake.Submission{}, err
		}
		if len(body) == 0 {
			return intake.Submission{}, &Error{Status: http.StatusBadRequest, Code: "invalid_sgf", Message: "the request body is empty; send the SGF text", Details: map[string]any{"offset": 0}}
		}
		sub := intake.Submission{SourceID: c.Query("source_id"), GameID: c.Query("game_id"), SGF: body, By: by.Username, TimeControl: c.Query("time_control"),
			BlackID: c.Query("black_id"), WhiteID: c.Query("white_id"), Trusted: by.Role == players.RoleServer}
		if v, ok := c.GetQuery("rated"); ok {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return intake.Submission{}, &Error{Status: http.StatusBadRequest, Code: "invalid_parameter", Message: "rated must be true or false, got " + strconv.Quote(v), Details: map[string]any{"parameter": "rated"}}
			}
			sub.Rated = &b
		}
		return sub, nil
	}
	if err := jsonContentType(c, "application/json or "+SGFType); err != nil {
		return intake.Submission{}, err
	}
	if err := notSGF(c, mt); err != nil {
		return intake.Submission{}, err
	}
	var in gameIn
	if err := decodeJSON(c, &in); err != nil {
		return intake.Submission{}, err
	}
	if in.SourceID == "" && in.GameID == "" {
		return intake.Submission{}, requireFields("source_id", "")
	}
	rec, err := in.record()
	if err != nil {
		return intake.Submission{}, err
	}
	sub := intake.Submission{SourceID: in.SourceID, GameID: in.GameID, Black: in.Black, White: in.White, BlackID: in.BlackID, WhiteID: in.WhiteID, Record: rec,
		Rated: in.Rated, TimeControl: in.TimeControl, By: by.Username, Trusted: by.Role == players.RoleServer}
	if rec == nil {
		sub.SGF = []byte(in.SGF)
	}
	return sub, nil
}

// gameJSON is a stored game as the API shows it.
type gameJSON struct {
	ID          string        `json:"id"`
	SourceID    string        `json:"source_id"`
	Status      string        `json:"status"`
	Black       string        `json:"black"`
	White       string        `json:"white"`
	Rated       bool          `json:"rated"`
	TimeControl string        `json:"time_control,omitempty"`
	Size        int           `json:"size"`
	Rules       string        `json:"rules"`
	Komi        float64       `json:"komi"`
	Handicap    int           `json:"handicap"`
	Moves       []games.Move  `json:"moves"`
	Setup       []games.Stone `json:"setup,omitempty"`
	Dead        []games.Point `json:"dead,omitempty"`
	End         string        `json:"end,omitempty"`
	EndBy       string        `json:"end_by,omitempty"`
	Result      string        `json:"result,omitempty"`
	MoveCount   int           `json:"move_count"`
	SubmittedBy string        `json:"submitted_by,omitempty"`
	CreatedAt   time.Time     `json:"created_at"`
	FinishedAt  *time.Time    `json:"finished_at,omitempty"`
	ExpiresAt   *time.Time    `json:"expires_at,omitempty"`
	PlayedAt    *time.Time    `json:"played_at,omitempty"`
	// The judge's notes on a counted game sent without dead stones.
	ProposedDead    []games.Point `json:"proposed_dead,omitempty"`
	CountUnverified bool          `json:"count_unverified,omitempty"`
	ComputedResult  string        `json:"computed_result,omitempty"`
	KomiFits        *float64      `json:"komi_fits,omitempty"`
	// What the record says besides the moves.
	Event  string `json:"event,omitempty"`
	Round  string `json:"round,omitempty"`
	Place  string `json:"place,omitempty"`
	Source string `json:"source,omitempty"`
	// What the reader assumed to read the submitted file (English, as
	// the reader writes it); none for a game sent as JSON fields.
	Assumptions []string `json:"assumptions,omitempty"`
	// Annulled: an admin annulled the game after it was rated (its
	// rating changes reversed); the status stays the one it had.
	Annulled *annulledJSON `json:"annulled,omitempty"`
}

// annulledJSON leaves out who annulled it: a game is a public read, the
// admin's name is the audit's.
type annulledJSON struct {
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
}

func toGameJSON(g intake.StoredGame) gameJSON {
	r := g.Record
	out := gameJSON{
		ID: g.ID, SourceID: g.SourceID, Status: string(g.Status), Black: g.Black, White: g.White, Rated: g.Rated,
		TimeControl: g.TimeControl, Size: r.Size, Rules: r.Rules.String(), Komi: r.Komi, Handicap: r.Handicap,
		Moves: r.Moves, Setup: r.Setup, Dead: r.Dead, MoveCount: len(r.Moves), SubmittedBy: g.SubmittedBy,
		CreatedAt: g.CreatedAt.UTC(), FinishedAt: optTime(g.FinishedAt), ExpiresAt: optTime(g.ExpiresAt),
		PlayedAt: optTime(g.PlayedAt), Event: r.Event, Round: r.Round, Place: r.Place, Source: r.Source,
		Assumptions: r.Assumptions,
	}
	if out.Moves == nil {
		out.Moves = []games.Move{}
	}
	if v := g.Verdict; v != nil {
		out.End, out.Result, out.MoveCount = string(v.End), v.Result, v.Moves
		out.ProposedDead, out.CountUnverified, out.ComputedResult, out.KomiFits = v.ProposedDead, v.CountUnverified, v.Computed, v.KomiFits
		if r.EndBy != games.Empty {
			out.EndBy = sideName(r.EndBy)
		}
	}
	return out
}

// sideName is "black" or "white".
func sideName(c games.Color) string {
	if c == games.White {
		return "white"
	}
	return "black"
}

func optTime(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	u := t.UTC()
	return &u
}

// playerAfterJSON is one player after a game.
type playerAfterJSON struct {
	Username string     `json:"username"`
	Delta    int        `json:"delta"`
	Score    int        `json:"score"`
	Rank     string     `json:"rank"`
	Glicko   glickoJSON `json:"glicko"`
}

type glickoJSON struct {
	Rating     float64 `json:"rating"`
	RD         float64 `json:"rd"`
	Volatility float64 `json:"volatility"`
}

func toPlayerAfter(p rating.PlayerResult) playerAfterJSON {
	return playerAfterJSON{Username: p.Username, Delta: p.Delta, Score: p.Score, Rank: p.Rank().String(),
		Glicko: glickoJSON{Rating: p.Glicko.Rating, RD: p.Glicko.RD, Volatility: p.Glicko.Volatility}}
}

type acceptedJSON struct {
	Game  gameJSON        `json:"game"`
	Black playerAfterJSON `json:"black"`
	White playerAfterJSON `json:"white"`
}

func (s *Server) submitGame(c *gin.Context) {
	sub, err := s.submission(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	a, err := s.deps.Games.Submit(c.Request.Context(), sub)
	if err != nil {
		s.fail(c, err)
		return
	}
	status := http.StatusCreated
	if a.Retry {
		status = http.StatusOK
	}
	c.Header("Location", "/api/v1/games/"+a.Game.ID)
	c.JSON(status, acceptedJSON{Game: toGameJSON(a.Game), Black: toPlayerAfter(a.Rating.Black), White: toPlayerAfter(a.Rating.White)})
}

func (s *Server) getGame(c *gin.Context) {
	g, err := s.deps.Games.Game(c.Request.Context(), c.Param("id"))
	if err == nil && anonymous(c) && !g.Ended() { // anonymous callers see ended games only
		err = needToken("a game that is not finished")
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	if c.NegotiateFormat(gin.MIMEJSON, SGFType) == SGFType {
		c.Data(http.StatusOK, SGFType, g.SGF())
		return
	}
	out := toGameJSON(g)
	if g.Ended() {
		a, ok, err := s.deps.Ratings.AnnulledGame(c.Request.Context(), g.ID)
		if err != nil {
			s.fail(c, err)
			return
		}
		if ok {
			out.Annulled = toAnnulledJSON(a)
		}
	}
	c.JSON(http.StatusOK, out)
}

func toAnnulledJSON(a rating.Annulled) *annulledJSON {
	return &annulledJSON{At: a.At.UTC(), Reason: a.Reason}
}

// markAnnulled marks the annulled games of a page of a player's games:
// each ended game's annulment read by its id (a miss for almost every
// game), as the game's own read does. A query of the player's annulment
// entries would scan the whole rating log on the embedded store.
func (s *Server) markAnnulled(c *gin.Context, items []gameJSON) error {
	for i := range items {
		if st := intake.Status(items[i].Status); st != intake.StatusFinished && st != intake.StatusRated {
			continue
		}
		a, ok, err := s.deps.Ratings.AnnulledGame(c.Request.Context(), items[i].ID)
		if err != nil {
			return err
		}
		if ok {
			items[i].Annulled = toAnnulledJSON(a)
		}
	}
	return nil
}

// flaggedJSON is a flagged game: the game, and when and why it was
// flagged.
type flaggedJSON struct {
	Game      gameJSON  `json:"game"`
	Flag      string    `json:"flag"`
	FlaggedAt time.Time `json:"flagged_at"`
}

// listFlaggedGames answers GET /api/v1/admin/games?flag=count_unverified:
// games from game servers accepted as claimed although their count gave
// another result, newest first, each with both results.
func (s *Server) listFlaggedGames(c *gin.Context) {
	var cur intake.FlagCursor
	limit, has, err := PageParams(c, &cur)
	if err != nil {
		s.fail(c, err)
		return
	}
	flag := c.DefaultQuery("flag", intake.FlagCountUnverified)
	// A query parameter, checked here: the service's refusal is a field
	// of a game record (422 "invalid record: flag"), the wrong words.
	if !slices.Contains(intake.Flags, flag) {
		s.fail(c, badParam("flag", "flag must be one of "+joinQuoted(intake.Flags)+", got "+strconv.Quote(flag)))
		return
	}
	var after *intake.FlagCursor
	if has {
		after = &cur
	}
	rows, err := s.deps.Games.Flagged(c.Request.Context(), flag, after, limit+1)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := pageOf(rows, limit, func(f intake.FlaggedGame) flaggedJSON {
		return flaggedJSON{Game: toGameJSON(f.Game), Flag: f.Flag, FlaggedAt: f.At.UTC()}
	}, func(f intake.FlaggedGame) any { return intake.FlagCursor{At: f.At, ID: f.Game.ID} })
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

// linkIn is the body of PUT /api/v1/server/players/{external_id}.
type linkIn struct {
	Username string `json:"username"`
}

type linkJSON struct {
	Server     string    `json:"server"`
	ExternalID string    `json:"external_id"`
	Username   string    `json:"username"`
	At         time.Time `json:"at"`
}

// linkPlayer: a game server ties its own id of a player to a platform
// account, once, so that it may submit games with black_id and white_id.
func (s *Server) linkPlayer(c *gin.Context) {
	var in linkIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	name, err := bodyUsername("username", in.Username)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	l, err := s.deps.Players.LinkPlayer(c.Request.Context(), by.Username, c.Param("external_id"), name)
	if errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay) {
		err = &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no player " + name, Details: map[string]any{"field": "username"}}
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, linkJSON{Server: l.Server, ExternalID: l.ExternalID, Username: l.Username, At: l.At.UTC()})
}

package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
)

func (s *Server) matchmakingRoutes(authed *gin.RouterGroup) {
	// Tickets are the caller's own: there is no route to another's.
	mine := authed.Group("/matchmaking/tickets", s.require(playRoles...))
	mine.POST("", s.enqueue)
	mine.GET("/mine", s.myTicket)
	mine.DELETE("/mine", s.cancelTicket)
	authed.GET("/matchmaking/pools", s.require(players.RoleAdmin), s.listPools)
}

// ticketIn is a request to queue. time_control is a preset name or an
// object (timeControlIn); rated defaults to true.
type ticketIn struct {
	BoardSize   int             `json:"board_size"`
	TimeControl json.RawMessage `json:"time_control"`
	Rules       string          `json:"rules"`
	Rated       *bool           `json:"rated"`
	RankRange   *rankRangeIn    `json:"rank_range"`
}

type timeControlIn struct {
	Preset        string `json:"preset"`
	MainSeconds   int64  `json:"main_seconds"`
	Periods       int64  `json:"periods"`
	PeriodSeconds int64  `json:"period_seconds"`
}

// rankRangeIn is the opponents' ranks a player accepts, either end open.
type rankRangeIn struct {
	Min string `json:"min"`
	Max string `json:"max"`
}

type timeControlJSON struct {
	Preset        string `json:"preset,omitempty"`
	MainSeconds   int64  `json:"main_seconds"`
	Periods       int    `json:"periods"`
	PeriodSeconds int64  `json:"period_seconds"`
}

func toTimeControlJSON(tc games.TimeControl) timeControlJSON {
	return timeControlJSON{Preset: tc.Preset, MainSeconds: int64(tc.Main / time.Second), Periods: tc.Periods, PeriodSeconds: int64(tc.Period / time.Second)}
}

type levelJSON struct {
	Score  int     `json:"score"`
	Rank   string  `json:"rank"`
	Rating float64 `json:"rating"`
	RD     float64 `json:"rd"`
}

// scoreRangeJSON is a rank range as ladder scores; an open end is absent.
type scoreRangeJSON struct {
	MinScore *int `json:"min_score,omitempty"`
	MaxScore *int `json:"max_score,omitempty"`
}

// ticketJSON is a ticket as its player sees it; the match fields are
// there once it is matched (game_id once the game exists, at once in
// practice).
type ticketJSON struct {
	ID            string          `json:"id"`
	State         string          `json:"state"`
	Pool          string          `json:"pool"`
	BoardSize     int             `json:"board_size"`
	TimeControl   timeControlJSON `json:"time_control"`
	Rules         string          `json:"rules"`
	Rated         bool            `json:"rated"`
	Level         levelJSON       `json:"level"`
	RankRange     *scoreRangeJSON `json:"rank_range,omitempty"`
	CreatedAt     time.Time       `json:"created_at"`
	WaitedSeconds float64         `json:"waited_seconds"`
	EndedAt       *time.Time      `json:"ended_at,omitempty"`
	GameID        string          `json:"game_id,omitempty"`
	Opponent      string          `json:"opponent,omitempty"`
	Colour        string          `json:"colour,omitempty"`
	MatchedAt     *time.Time      `json:"matched_at,omitempty"`
}

func toTicketJSON(t matchmaking.Ticket, now time.Time) ticketJSON {
	out := ticketJSON{
		ID: t.ID, State: string(t.State), Pool: t.Pool.Key(), BoardSize: t.Pool.BoardSize,
		TimeControl: toTimeControlJSON(t.Pool.TimeControl), Rules: t.Pool.Rules, Rated: t.Pool.Rated,
		Level:     levelJSON{Score: t.Level.Score, Rank: ranks.FromScore(t.Level.Score).String(), Rating: t.Level.Rating, RD: t.Level.RD},
		CreatedAt: t.CreatedAt.UTC(), WaitedSeconds: t.Waited(now).Seconds(),
	}
	if t.Range != matchmaking.AnyScore {
		r := &scoreRangeJSON{}
		if t.Range.Min != matchmaking.NoMin {
			r.MinScore = &t.Range.Min
		}
		if t.Range.Max != matchmaking.NoMax {
			r.MaxScore = &t.Range.Max
		}
		out.RankRange = r
	}
	if !t.EndedAt.IsZero() && t.State != matchmaking.Waiting {
		e := t.EndedAt.UTC()
		out.EndedAt = &e
	}
	if m := t.Match; m != nil {
		out.GameID, out.Opponent, out.Colour = m.GameID, m.Opponent, string(m.Colour)
		at := m.MatchedAt.UTC()
		out.MatchedAt = &at
	}
	return out
}

func invalidField(field, msg string) error {
	return &Error{Status: http.StatusUnprocessableEntity, Code: "invalid_field", Message: field + ": " + msg,
		Details: map[string]any{"field": field, "reason": msg}}
}

// timeControl reads a preset name or an explicit time control.
func timeControl(raw json.RawMessage) (games.TimeControl, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || bytes.Equal(raw, []byte("null")) {
		return games.TimeControl{}, &Error{Status: http.StatusBadRequest, Code: "missing_field",
			Message: "field time_control is required: a preset name (blitz, rapid, standard, slow) or {main_seconds, periods, period_seconds}",
			Details: map[string]any{"field": "time_control"}}
	}
	if raw[0] == '"' {
		var name string
		if err := json.Unmarshal(raw, &name); err != nil {
			return games.TimeControl{}, badJSON("field time_control: "+err.Error(), map[string]any{"field": "time_control"})
		}
		return games.TimeControl{Preset: name}, nil
	}
	var in timeControlIn
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&in); err != nil {
		return games.TimeControl{}, &Error{Status: http.StatusBadRequest, Code: "invalid_json",
			Message: "field time_control must be a preset name or {preset, main_seconds, periods, period_seconds}: " + err.Error(),
			Details: map[string]any{"field": "time_control"}}
	}
	tc, err := games.Seconds(in.MainSeconds, in.Periods, in.PeriodSeconds)
	if err != nil {
		var ie *games.InvalidRecordError
		errors.As(err, &ie)
		field := map[string]string{"main": "main_seconds", "periods": "periods", "period": "period_seconds"}[ie.Field]
		return games.TimeControl{}, invalidField("time_control."+field, ie.Msg)
	}
	tc.Preset = in.Preset
	return tc, nil
}

// scoreRange turns a rank range into ladder scores: the lower rank's
// first score to the upper rank's last, the ladder's ends open.
func scoreRange(in *rankRangeIn) (*matchmaking.ScoreRange, error) {
	if in == nil || (in.Min == "" && in.Max == "") {
		return nil, nil
	}
	r := matchmaking.AnyScore
	if lo, _, err := rankBounds("rank_range.min", in.Min); err != nil {
		return nil, err
	} else if lo != nil {
		r.Min = *lo
	}
	if _, hi, err := rankBounds("rank_range.max", in.Max); err != nil {
		return nil, err
	} else if hi != nil {
		r.Max = *hi
	}
	return &r, nil
}

// rankBounds is the ladder scores of one end of a rank range; an empty
// end or an end of the ladder is open (nil).
func rankBounds(field, text string) (lo, hi *int, err error) {
	if text == "" {
		return nil, nil, nil
	}
	rk, err := ranks.Parse(text)
	if err != nil {
		return nil, nil, invalidField(field, err.Error())
	}
	if lo, hi, err = rk.Band(); err != nil {
		return nil, nil, invalidField(field, "rank "+rk.String()+" is not on the ladder (9k to 9d)")
	}
	return lo, hi, nil
}

func (s *Server) enqueue(c *gin.Context) {
	var in ticketIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	tc, err := timeControl(in.TimeControl)
	if err != nil {
		s.fail(c, err)
		return
	}
	rng, err := scoreRange(in.RankRange)
	if err != nil {
		s.fail(c, err)
		return
	}
	ctx := c.Request.Context()
	caller, _ := principalOf(c)
	// The level to match on: the recorded one (one read), not a write.
	st, err := s.deps.Ratings.LevelOf(ctx, caller.Username)
	if err != nil {
		s.fail(c, err)
		return
	}
	rated := in.Rated == nil || *in.Rated
	t, err := s.deps.Matchmaking.Enqueue(ctx, matchmaking.Request{
		Player: caller.Username, Level: matchmaking.Level{Score: st.Score, Rating: st.Glicko.Rating, RD: st.Glicko.RD},
		BoardSize: in.BoardSize, TimeControl: tc, Rules: in.Rules, Rated: rated, Range: rng,
	})
	if errors.Is(err, matchmaking.ErrInGame) {
		err = s.inGame(c, caller.Username, err)
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, toTicketJSON(t, s.deps.Matchmaking.Now()))
}

// myTicket is the poll, which is also the heartbeat that keeps a waiting
// ticket alive.
func (s *Server) myTicket(c *gin.Context) {
	caller, _ := principalOf(c)
	t, err := s.deps.Matchmaking.Mine(c.Request.Context(), caller.Username)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toTicketJSON(t, s.deps.Matchmaking.Now()))
}

func (s *Server) cancelTicket(c *gin.Context) {
	caller, _ := principalOf(c)
	// A pairing that came first is a *matchmaking.MatchedError: the table
	// answers it with the matched ticket.
	t, err := s.deps.Matchmaking.Cancel(c.Request.Context(), caller.Username)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toTicketJSON(t, s.deps.Matchmaking.Now()))
}

// poolJSON is one pool in the admin view.
type poolJSON struct {
	Pool              string          `json:"pool"`
	BoardSize         int             `json:"board_size"`
	TimeControl       timeControlJSON `json:"time_control"`
	Rules             string          `json:"rules"`
	Rated             bool            `json:"rated"`
	Waiting           int             `json:"waiting"`
	OldestWaitSeconds float64         `json:"oldest_wait_seconds"`
}

func (s *Server) listPools(c *gin.Context) {
	stats, err := s.deps.Matchmaking.Pools(c.Request.Context())
	if err != nil {
		s.fail(c, err)
		return
	}
	items := make([]poolJSON, len(stats))
	for i, p := range stats {
		items[i] = poolJSON{Pool: p.Key, BoardSize: p.Pool.BoardSize, TimeControl: toTimeControlJSON(p.Pool.TimeControl),
			Rules: p.Pool.Rules, Rated: p.Pool.Rated, Waiting: p.Waiting, OldestWaitSeconds: p.OldestWait.Seconds()}
	}
	c.JSON(http.StatusOK, NewList(items, ""))
}

package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/matchmaking"
	"github.com/weiqi-platform/rank/ranks"
)

type playData struct {
	Ticket    *matchmaking.Ticket
	Waited    string
	Window    string
	Sizes     []int
	Times     []string
	Rules     []string
	Ranks     []ranks.Rank
	Error     string
	Detail    string
	Pending   string // the caller's unfinished game, if any
	Cancelled bool
	// Chosen is what the form has selected: the defaults, or what the
	// caller sent when the form comes back refused.
	Chosen playChoice
}

// playChoice is a play form's selection, as the form sends it.
type playChoice struct {
	Size                  int
	Time, Rules, Min, Max string
}

func (s *Server) playForm() playData {
	times := games.PresetNames()
	slices.Sort(times)
	return playData{Sizes: matchmaking.BoardSizes, Times: times, Rules: matchmaking.RulesPresets, Ranks: ranks.LadderRanks(),
		Chosen: playChoice{Size: 19, Time: "rapid"}}
}

// waitText is how long a ticket waited and the pairing window it has
// reached, in the page's words.
func (s *Server) waitText(lang string, t matchmaking.Ticket) (waited, window string) {
	w := t.Waited(s.d.Matchmaking.Now())
	win := s.d.Matchmaking.Config().Policy.Window(w)
	waited = tr(lang, "play.seconds", int(w/time.Second))
	window = tr(lang, "play.window_value", win, rankText(lang, ranks.FromScore(t.Level.Score-win)), rankText(lang, ranks.FromScore(t.Level.Score+win)))
	return waited, window
}

func (s *Server) play(c *ctx) error {
	d := s.playForm()
	t, err := s.d.Matchmaking.Mine(c.r.Context(), c.user.Username)
	switch {
	case errors.Is(err, matchmaking.ErrNoTicket):
	case err != nil:
		return err
	case t.State == matchmaking.Matched && t.Match != nil && t.Match.GameID != "":
		// Only a game still to be played is where the player belongs; one
		// that ended (aborted, finished, rated, expired) leaves the ticket
		// matched, and the queue form is what comes next.
		g, err := s.d.Games.Game(c.r.Context(), t.Match.GameID)
		switch {
		case err == nil && g.Status == intake.StatusPending:
			return c.redirect("/games/" + url.PathEscape(t.Match.GameID))
		case err != nil && !errors.Is(err, intake.ErrNotFound):
			return err
		}
	case t.State == matchmaking.Waiting || t.State == matchmaking.Matched:
		d.Ticket = &t
		d.Waited, d.Window = s.waitText(c.lang, t)
	case t.State == matchmaking.Cancelled:
		d.Cancelled = true
	}
	if d.Ticket == nil {
		g, ok, err := s.d.Games.PendingOf(c.r.Context(), c.user.Username)
		if err != nil {
			return err
		}
		if ok {
			d.Pending = g.ID
		}
	}
	c.render(http.StatusOK, "play", "play.title", d)
	return nil
}

func (s *Server) playPost(c *ctx) error {
	ctx := c.r.Context()
	f := c.r.PostForm
	size, _ := strconv.Atoi(c.r.PostFormValue("size"))
	req := matchmaking.Request{Player: c.user.Username, BoardSize: size, TimeControl: games.TimeControl{Preset: f.Get("time")},
		Rules: f.Get("rules"), Rated: true}
	rng := matchmaking.AnyScore
	if v := f.Get("min"); v != "" {
		if r, err := ranks.Parse(v); err == nil {
			if lo, _, err := r.Band(); err == nil && lo != nil {
				rng.Min = *lo
			}
		}
	}
	if v := f.Get("max"); v != "" {
		if r, err := ranks.Parse(v); err == nil {
			if _, hi, err := r.Band(); err == nil && hi != nil {
				rng.Max = *hi
			}
		}
	}
	if rng != matchmaking.AnyScore {
		req.Range = &rng
	}
	st, err := s.d.Ratings.PlayerOrNew(ctx, c.user.Username)
	if err != nil {
		return err
	}
	req.Level = matchmaking.Level{Score: st.Score, Rating: st.Glicko.Rating, RD: st.Glicko.RD}
	if _, err := s.d.Matchmaking.Enqueue(ctx, req); err != nil {
		d := s.playForm()
		// The form comes back with the caller's choices, not the
		// defaults, so only the refused one needs changing.
		d.Chosen = playChoice{Size: size, Time: f.Get("time"), Rules: f.Get("rules"), Min: f.Get("min"), Max: f.Get("max")}
		status, key, detail, _ := c.classified(err)
		if status >= 500 {
			return err
		}
		d.Error, d.Detail = key, detail
		c.render(status, "play", "play.title", d)
		return nil
	}
	return c.redirect("/play")
}

// ticketJSON is what the waiting page's script polls.
type ticketJSON struct {
	State     string `json:"state"`
	StateText string `json:"state_text"`
	Waited    string `json:"waited"`
	Window    string `json:"window"`
	GameURL   string `json:"game_url,omitempty"`
}

func (s *Server) playTicket(c *ctx) error {
	t, err := s.d.Matchmaking.Mine(c.r.Context(), c.user.Username)
	out := ticketJSON{}
	switch {
	case errors.Is(err, matchmaking.ErrNoTicket):
		out.State = "none"
	case err != nil:
		return err
	default:
		out.State = string(t.State)
		out.Waited, out.Window = s.waitText(c.lang, t)
		if t.Match != nil && t.Match.GameID != "" {
			out.GameURL = "/games/" + url.PathEscape(t.Match.GameID)
		}
	}
	out.StateText = tr(c.lang, "ticket."+out.State)
	c.w.Header().Set("Content-Type", "application/json")
	c.w.Header().Set("Cache-Control", "no-store")
	return json.NewEncoder(c.w).Encode(out)
}

func (s *Server) playCancel(c *ctx) error {
	t, err := s.d.Matchmaking.Cancel(c.r.Context(), c.user.Username)
	if errors.Is(err, matchmaking.ErrMatched) && t.Match != nil && t.Match.GameID != "" {
		return c.redirect("/games/" + url.PathEscape(t.Match.GameID))
	}
	if err != nil && !errors.Is(err, matchmaking.ErrNoTicket) && !errors.Is(err, matchmaking.ErrMatched) {
		return err
	}
	return c.redirect("/play")
}

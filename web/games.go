package web

import (
	"errors"
	"net/http"
	"net/url"
	"slices"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
)

// gamesPage is the size of a page of a player's games.
const gamesPage = 50

type gamesData struct {
	Player string
	State  string
	States []intake.Status
	Rows   []recentGame
	Next   string
}

// playerName resolves the {username} of the path to a player (404 when
// there is none).
func (s *Server) playerName(c *ctx) (string, error) {
	name, err := s.d.Players.Playable(c.r.Context(), c.r.PathValue("username"))
	if errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay) {
		return "", errNotFound
	}
	return name, err
}

// playerGames lists a player's games, newest first, paged, filtered by
// state.
func (s *Server) playerGames(c *ctx) error {
	name, err := s.playerName(c)
	if err != nil {
		return err
	}
	qv := c.r.URL.Query()
	d := gamesData{Player: name, State: qv.Get("state"), States: intake.Statuses}
	q := intake.GamesQuery{Player: name, Limit: gamesPage + 1}
	if d.State != "" {
		if !slices.Contains(intake.Statuses, intake.Status(d.State)) {
			return &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "state"}
		}
		q.States = []intake.Status{intake.Status(d.State)}
	}
	if a := qv.Get("after"); a != "" {
		var cur intake.GameCursor
		if err := decodeCursor(a, &cur); err != nil {
			return &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "after"}
		}
		q.After = &cur
	}
	gs, err := s.d.Games.PlayerGames(c.r.Context(), q)
	if err != nil {
		return err
	}
	if len(gs) > gamesPage {
		gs = gs[:gamesPage]
		d.Next = encodeCursor(intake.CursorOf(gs[len(gs)-1]))
	}
	for _, g := range gs {
		d.Rows = append(d.Rows, gameRow(name, g, nil))
	}
	c.render(http.StatusOK, "games", "games.title", d)
	return nil
}

// maxArchive bounds the games of one SGF archive download.
const maxArchive = 20_000

// playerArchive writes the player's finished games as one SGF
// collection, newest first.
func (s *Server) playerArchive(c *ctx) error {
	name, err := s.playerName(c)
	if err != nil {
		return err
	}
	q := intake.GamesQuery{Player: name, States: []intake.Status{intake.StatusFinished, intake.StatusRated}, Limit: intake.MaxGamesPage}
	c.w.Header().Set("Content-Type", "application/x-go-sgf")
	c.w.Header().Set("Content-Disposition", `attachment; filename="`+safeFile(name)+`-games.sgf"`)
	for n := 0; n < maxArchive; {
		gs, err := s.d.Games.PlayerGames(c.r.Context(), q)
		if err != nil {
			return err
		}
		for _, g := range gs {
			_, _ = c.w.Write(g.SGF())
			_, _ = c.w.Write([]byte("\n"))
		}
		n += len(gs)
		if len(gs) < intake.MaxGamesPage {
			break
		}
		cur := intake.CursorOf(gs[len(gs)-1])
		q.After = &cur
	}
	return nil
}

// gameAbort voids the caller's pending game within the abort window.
func (s *Server) gameAbort(c *ctx) error {
	id := c.r.PathValue("id")
	// Refusals (not abortable, not the caller's, not pending) read as
	// the API answers them (api.Classify).
	if _, err := s.d.Games.Abort(c.r.Context(), id, c.user.Username); err != nil {
		return err
	}
	return c.redirect("/games/" + url.PathEscape(id))
}

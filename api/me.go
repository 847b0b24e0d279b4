package api

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

// The routes a player's own pages need (issue 14): who am I, my display
// name and password, my games and rating history, my pending game and its
// abort; and the admins' list of aborts.
func (s *Server) meRoutes(v1, authed, admin *gin.RouterGroup) {
	authed.GET("/me", s.getMe)
	authed.PATCH("/me", s.patchMe)
	authed.POST("/me/password", s.changePassword)
	reads := v1.Group("", s.reader)
	reads.GET("/players/:username/games", s.playerGames)
	reads.GET("/players/:username/rating-history", s.ratingHistory)
	authed.POST("/games/:id/abort", s.require(playRoles...), s.abortGame)
	admin.GET("/aborts", s.listAborts)
}

// reader guards the public reads: with a token, the token is checked as
// everywhere; without one, the read goes on as anonymous when the operator
// allows public reads (Deps.PublicReads), else it is a 401.
func (s *Server) reader(c *gin.Context) {
	if !s.deps.PublicReads || c.GetHeader("Authorization") != "" {
		s.authenticate(c)
		return
	}
	c.Next()
}

// anonymous reports whether the request came without a token (a public
// read).
func anonymous(c *gin.Context) bool {
	_, ok := principalOf(c)
	return !ok
}

// needToken is the 401 of a public read asking for what only callers
// with a token see.
func needToken(what string) error {
	return &Error{Status: http.StatusUnauthorized, Code: "unauthenticated", Message: what + " needs an Authorization: Bearer token"}
}

// cors answers browsers' cross-origin requests from the configured
// origins (Deps.CORSOrigins): the origin is echoed, never "*", and no
// credentials are allowed (the API takes bearer tokens, which a page
// sends itself; a cookie of this host never rides along). A preflight is
// answered here, 204; other origins get no CORS headers, so their pages
// cannot read the answers.
func (s *Server) cors(c *gin.Context) {
	origin := c.GetHeader("Origin")
	if origin == "" || !slices.Contains(s.deps.CORSOrigins, origin) {
		c.Next()
		return
	}
	h := c.Writer.Header()
	h.Add("Vary", "Origin")
	h.Set("Access-Control-Allow-Origin", origin)
	h.Set("Access-Control-Expose-Headers", "X-Request-ID, Retry-After, Location, Content-Disposition")
	if c.Request.Method == http.MethodOptions && c.GetHeader("Access-Control-Request-Method") != "" {
		h.Set("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE")
		h.Set("Access-Control-Allow-Headers", "Authorization, Content-Type, Accept, Idempotency-Key, X-Request-ID")
		h.Set("Access-Control-Max-Age", "600")
		c.AbortWithStatus(http.StatusNoContent)
		return
	}
	c.Next()
}

// profileJSON is a player's profile: their rating (playerJSON), their
// display name, and the one sentence saying which number is what.
type profileJSON struct {
	playerJSON
	DisplayName string            `json:"display_name,omitempty"`
	RankNote    map[string]string `json:"rank_note,omitempty"`
}

func toProfileJSON(p rating.PlayerState, display string) profileJSON {
	return profileJSON{playerJSON: toPlayerJSON(p), DisplayName: display,
		RankNote: map[string]string{"zh": rating.RankNote(p, "zh"), "en": rating.RankNote(p, "en")}}
}

type meSchoolJSON struct {
	ID       string `json:"id"`
	Name     string `json:"name"`
	TimeZone string `json:"time_zone"`
	Scale    string `json:"scale"`
	Teacher  bool   `json:"teacher"`
}

// meJSON is the caller: account, rating (for roles that play), schools
// and classes, and the pending game when there is one.
type meJSON struct {
	Username    string         `json:"username"`
	DisplayName string         `json:"display_name,omitempty"`
	Role        string         `json:"role"`
	Roles       []string       `json:"roles"`
	Managed     bool           `json:"managed"`
	Player      *profileJSON   `json:"player,omitempty"`
	Schools     []meSchoolJSON `json:"schools"`
	Classes     myClassesJSON  `json:"classes"`
	PendingGame *pendingJSON   `json:"pending_game"`
}

// pendingJSON is the caller's pending game: the game, and until when it
// may be aborted (absent when it may not be).
type pendingJSON struct {
	Game           gameJSON   `json:"game"`
	Opponent       string     `json:"opponent"`
	Colour         string     `json:"colour"`
	AbortableUntil *time.Time `json:"abortable_until,omitempty"`
}

func (s *Server) me(c *gin.Context) (meJSON, error) {
	by, _ := principalOf(c)
	ctx := c.Request.Context()
	a, err := s.deps.Players.Account(ctx, by.Username)
	if err != nil {
		return meJSON{}, err
	}
	out := meJSON{Username: a.Username, DisplayName: a.DisplayName, Role: string(by.Role), Roles: []string{string(by.Role)},
		Managed: a.ManagedBy != "", Schools: []meSchoolJSON{}, Classes: myClassesJSON{Student: []classJSON{}, Teaching: []classJSON{}}}
	if by.Is(playRoles...) {
		st, err := s.deps.Ratings.PlayerOrNew(ctx, a.Username)
		if err != nil {
			return meJSON{}, err
		}
		p := toProfileJSON(st, a.DisplayName)
		out.Player = &p
		g, ok, err := s.deps.Games.PendingOf(ctx, a.Username)
		if err != nil {
			return meJSON{}, err
		}
		if ok {
			out.PendingGame = s.toPendingJSON(g, a.Username)
		}
	}
	student, teaching, err := s.deps.Schools.MyClasses(ctx, by)
	if err != nil {
		return meJSON{}, err
	}
	seen := map[string]int{}
	addSchool := func(sch schools.School, teacher bool) {
		if i, ok := seen[sch.ID]; ok {
			out.Schools[i].Teacher = out.Schools[i].Teacher || teacher
			return
		}
		seen[sch.ID] = len(out.Schools)
		out.Schools = append(out.Schools, meSchoolJSON{ID: sch.ID, Name: sch.Name, TimeZone: sch.TimeZone, Scale: string(sch.Scale), Teacher: teacher})
	}
	if by.Is(players.RoleTeacher) {
		schs, err := s.deps.Schools.Schools(ctx, by)
		if err != nil {
			return meJSON{}, err
		}
		for _, sch := range schs {
			addSchool(sch, true)
		}
	}
	for _, v := range student {
		out.Classes.Student = append(out.Classes.Student, toClassViewJSON(v))
		addSchool(v.School, false)
	}
	for _, v := range teaching {
		out.Classes.Teaching = append(out.Classes.Teaching, toClassViewJSON(v))
		addSchool(v.School, true)
	}
	return out, nil
}

func (s *Server) toPendingJSON(g intake.StoredGame, me string) *pendingJSON {
	p := &pendingJSON{Game: toGameJSON(g), Opponent: g.White, Colour: "black"}
	if g.White == me {
		p.Opponent, p.Colour = g.Black, "white"
	}
	if until, ok := s.deps.Games.AbortableUntil(g); ok {
		u := until.UTC()
		p.AbortableUntil = &u
	}
	return p
}

func (s *Server) getMe(c *gin.Context) {
	out, err := s.me(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, out)
}

type mePatch struct {
	DisplayName *string `json:"display_name"`
}

// patchMe sets the caller's display name ("" takes it away).
func (s *Server) patchMe(c *gin.Context) {
	var in mePatch
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	if in.DisplayName == nil {
		s.fail(c, &Error{Status: http.StatusBadRequest, Code: "missing_field", Message: "field display_name is required (\"\" takes the name away)",
			Details: map[string]any{"field": "display_name"}})
		return
	}
	by, _ := principalOf(c)
	if _, err := s.deps.Players.SetDisplayName(c.Request.Context(), by.Username, *in.DisplayName); err != nil {
		s.fail(c, err)
		return
	}
	s.getMe(c)
}

type passwordChange struct {
	CurrentPassword string `json:"current_password"`
	NewPassword     string `json:"new_password"`
}

// changePassword sets the caller's password with the current one: every
// token of the account is revoked and a new one answered.
func (s *Server) changePassword(c *gin.Context) {
	var in passwordChange
	err := decodeJSON(c, &in)
	if err == nil {
		err = requireFields("current_password", in.CurrentPassword, "new_password", in.NewPassword)
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	tok, err := s.deps.Players.ChangePassword(c.Request.Context(), by.Username, in.CurrentPassword, in.NewPassword)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, tokenJSON{Token: tok.Secret, ExpiresAt: tok.ExpiresAt.UTC()})
}

// gameStates are the ?state= values of a player's games.
var gameStates = map[string][]intake.Status{
	"pending":  {intake.StatusPending},
	"finished": {intake.StatusFinished, intake.StatusRated}, // played to the end, rated or not yet
	"rated":    {intake.StatusRated},
	"expired":  {intake.StatusExpired},
	"aborted":  {intake.StatusAborted},
}

// gameStateNames is gameStates' keys, in the order the document lists
// them.
var gameStateNames = []string{"pending", "finished", "rated", "expired", "aborted"}

// MaxArchiveGames bounds the games of one SGF archive download, decided:
// a very active player's few years; the archive is written as it is read.
const MaxArchiveGames = 20_000

// playerGames answers a player's games, newest first, the annulled ones
// marked as GET /games/{id} marks them; ?format=sgf gives
// every finished game (with the filters) as one SGF collection.
func (s *Server) playerGames(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	q := intake.GamesQuery{Player: name}
	if v := c.Query("state"); v != "" {
		st, ok := gameStates[v]
		if !ok {
			s.fail(c, badParam("state", "state must be one of "+strings.Join(gameStateNames, ", ")+", got "+strconv.Quote(v)))
			return
		}
		if anonymous(c) && v != "finished" && v != "rated" {
			s.fail(c, needToken("a game that is not finished"))
			return
		}
		q.States = st
	} else if anonymous(c) {
		q.States = gameStates["finished"]
	}
	o, err := queryUsername(c, "opponent")
	if err != nil {
		s.fail(c, err)
		return
	}
	q.Opponent = o
	switch f := c.Query("format"); f {
	case "", "json":
	case "sgf":
		s.gameArchive(c, name, q)
		return
	default:
		s.fail(c, badParam("format", "format must be json or sgf, got "+strconv.Quote(f)))
		return
	}
	var cur intake.GameCursor
	limit, has, err := PageParams(c, &cur)
	if err != nil {
		s.fail(c, err)
		return
	}
	if has {
		q.After = &cur
	}
	q.Limit = limit + 1
	gs, err := s.deps.Games.PlayerGames(c.Request.Context(), q)
	if err != nil {
		s.fail(c, err)
		return
	}
	page, err := pageOf(gs, limit, toGameJSON, func(g intake.StoredGame) any { return intake.CursorOf(g) })
	if err == nil {
		err = s.markAnnulled(c, page.Items)
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

// gameArchive writes the player's finished games, newest first, as one
// SGF collection, page by page.
func (s *Server) gameArchive(c *gin.Context, name string, q intake.GamesQuery) {
	if len(q.States) == 0 || slices.Contains(q.States, intake.StatusPending) || slices.Contains(q.States, intake.StatusExpired) || slices.Contains(q.States, intake.StatusAborted) {
		q.States = gameStates["finished"] // only played games have records worth a file
	}
	q.Limit = intake.MaxGamesPage
	gs, err := s.deps.Games.PlayerGames(c.Request.Context(), q)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Content-Type", SGFType)
	c.Header("Content-Disposition", `attachment; filename="`+name+`-games.sgf"`)
	c.Status(http.StatusOK)
	n := 0
	for {
		for _, g := range gs {
			if n == MaxArchiveGames {
				return
			}
			_, _ = c.Writer.Write(g.SGF())
			_, _ = c.Writer.Write([]byte("\n"))
			n++
		}
		if len(gs) < q.Limit {
			return
		}
		cur := intake.CursorOf(gs[len(gs)-1])
		q.After = &cur
		if gs, err = s.deps.Games.PlayerGames(c.Request.Context(), q); err != nil {
			// The status is sent: end the file short, and say so in the log.
			s.log.WarnContext(c.Request.Context(), "game archive cut short", "request_id", requestIDOf(c), "player", name, "games", n, "err", err)
			return
		}
	}
}

// historyPointJSON is one day or week of a rating history.
type historyPointJSON struct {
	Date      string  `json:"date"`
	Score     int     `json:"score"`
	Rank      string  `json:"rank"`
	Rating    float64 `json:"rating"`
	RD        float64 `json:"rd"`
	RankShown string  `json:"rank_shown"`
	Games     int     `json:"games"`
}

// historyMarkJSON is an entry of the range a graph marks: an exam, a
// placement, an adjustment, an annulment, a revocation, a rank change.
type historyMarkJSON struct {
	At              time.Time `json:"at"`
	Seq             int64     `json:"seq"`
	Cause           string    `json:"cause"`
	CauseID         string    `json:"cause_id,omitempty"`
	ScoreBefore     int       `json:"score_before"`
	ScoreAfter      int       `json:"score_after"`
	RankBefore      string    `json:"rank_before"`
	RankAfter       string    `json:"rank_after"`
	CertifiedBefore string    `json:"certified_before,omitempty"`
	CertifiedAfter  string    `json:"certified_after,omitempty"`
}

type ratingHistoryJSON struct {
	Username   string             `json:"username"`
	From       string             `json:"from"`
	To         string             `json:"to"`
	Step       string             `json:"step"`
	TimeZone   string             `json:"time_zone"`
	StartScore int                `json:"start_score"`
	Points     []historyPointJSON `json:"points"`
	Marks      []historyMarkJSON  `json:"marks"`
}

// DefaultHistoryDays is the range of a rating history asked without
// from: the 90 days up to to.
const DefaultHistoryDays = 90

// ratingHistory answers a player's score, rank and Glicko-2 by day or
// week from their ledger, with the marks of the range.
func (s *Server) ratingHistory(c *gin.Context) {
	name, ok := s.player(c)
	if !ok {
		return
	}
	loc := time.UTC
	if tz := c.Query("tz"); tz != "" {
		l, err := time.UTC, errors.New("too long") // no file lookup for a long name
		if len(tz) <= maxTZLen {
			l, err = time.LoadLocation(tz)
		}
		if err != nil || tz == "Local" {
			s.fail(c, badParam("tz", "tz must be an IANA time zone such as Asia/Shanghai, got "+strconv.Quote(tz)))
			return
		}
		loc = l
	}
	day := func(param string, def time.Time) (time.Time, error) {
		v := c.Query(param)
		if v == "" {
			return def, nil
		}
		t, err := time.ParseInLocation(rating.DateLayout, v, loc)
		if err != nil {
			return time.Time{}, badParam(param, param+" must be a date YYYY-MM-DD, got "+strconv.Quote(v))
		}
		return t, nil
	}
	to, err := day("to", rating.Midnight(s.deps.Games.Now(), loc))
	if err != nil {
		s.fail(c, err)
		return
	}
	from, err := day("from", to.AddDate(0, 0, -(DefaultHistoryDays-1)))
	if err != nil {
		s.fail(c, err)
		return
	}
	step := c.Query("step")
	st, err := rating.CheckStep(step)
	if err != nil {
		s.fail(c, badParam("step", "step must be day or week, got "+strconv.Quote(step)))
		return
	}
	series, err := s.deps.Ratings.RatingHistory(c.Request.Context(), name, from, to, st)
	var re *rating.RangeError
	if errors.As(err, &re) {
		err = badParam(re.Field, re.Error())
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	out := ratingHistoryJSON{Username: name, From: from.Format(rating.DateLayout), To: to.Format(rating.DateLayout), Step: string(st),
		TimeZone: loc.String(), StartScore: series.Start, Points: make([]historyPointJSON, len(series.Points)), Marks: []historyMarkJSON{}}
	for i, p := range series.Points {
		out.Points[i] = historyPointJSON{Date: p.Date, Score: p.Score, Rank: p.Rank.String(), Rating: p.Glicko.Rating, RD: p.Glicko.RD, RankShown: p.ShownRank(), Games: p.Games}
	}
	for _, m := range series.Marks {
		out.Marks = append(out.Marks, historyMarkJSON{At: m.At.UTC(), Seq: m.Seq, Cause: m.Cause, CauseID: m.CauseID, ScoreBefore: m.ScoreBefore,
			ScoreAfter: m.ScoreAfter, RankBefore: m.RankBefore, RankAfter: m.RankAfter, CertifiedBefore: m.CertifiedBefore, CertifiedAfter: m.CertifiedAfter})
	}
	c.JSON(http.StatusOK, out)
}

// abortGame voids the caller's pending game within the abort window.
func (s *Server) abortGame(c *gin.Context) {
	by, _ := principalOf(c)
	g, err := s.deps.Games.Abort(c.Request.Context(), c.Param("id"), by.Username)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toGameJSON(g))
}

type abortCountJSON struct {
	Player string    `json:"player"`
	Count  int       `json:"count"`
	LastAt time.Time `json:"last_at"`
	Games  []string  `json:"games"`
}

// DefaultAbortDays is the span GET /admin/aborts counts without since;
// MaxAbortDays the longest it counts (a year: aborts are a pattern of the
// recent past).
const (
	DefaultAbortDays = 30
	MaxAbortDays     = 366
)

// listAborts counts the aborts per player who aborted, the most first.
func (s *Server) listAborts(c *gin.Context) {
	since := s.deps.Games.Now().AddDate(0, 0, -DefaultAbortDays)
	if v := c.Query("since"); v != "" {
		t, err := time.Parse(rating.DateLayout, v)
		if err != nil {
			s.fail(c, badParam("since", "since must be a date YYYY-MM-DD (UTC), got "+strconv.Quote(v)))
			return
		}
		if now := s.deps.Games.Now(); t.After(now) || t.Before(now.AddDate(0, 0, -MaxAbortDays)) {
			s.fail(c, badParam("since", fmt.Sprintf("since must be a day within the last %d days, got %s", MaxAbortDays, v)))
			return
		}
		since = t
	}
	counts, err := s.deps.Games.Aborts(c.Request.Context(), since)
	answerList(s, c, counts, err, func(a intake.AbortCount) string { return a.Player }, func(a intake.AbortCount) abortCountJSON {
		return abortCountJSON{Player: a.Player, Count: a.Count, LastAt: a.Last.UTC(), Games: a.Games}
	})
}

// inGame is the 409 of a player who may not queue while in a game, naming
// the game (read from the game store: it survives a restart that lost
// the ticket) so that the client can open or abort it.
func (s *Server) inGame(c *gin.Context, player string, cause error) error {
	g, ok, err := s.deps.Games.PendingOf(c.Request.Context(), player)
	if err != nil || !ok {
		return cause
	}
	return &Error{Status: http.StatusConflict, Code: "in_game", Message: "you are in game " + g.ID + ", which has not finished",
		Details: map[string]any{"game_id": g.ID}}
}

// maxTZLen bounds the tz parameter: the longest IANA zone name is 32
// bytes (America/Argentina/ComodRivadavia).
const maxTZLen = 64

package api

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// playRoles are the accounts that may play (and so register for exams
// and check in): every one but a game server's.
var playRoles = []players.Role{players.RolePlayer, players.RoleTeacher, players.RoleAdmin}

func (s *Server) examRoutes(authed, admin *gin.RouterGroup) {
	authed.POST("/exams", s.require(players.RoleAdmin), s.createExam)
	authed.GET("/exams", s.listExams)
	authed.POST("/exams/:id/registrations", s.require(players.RolePlayer, players.RoleTeacher), s.registerForExam)
	authed.DELETE("/exams/:id/registrations", s.require(players.RolePlayer, players.RoleTeacher), s.withdrawFromExam)
	authed.GET("/exams/:id/sessions", s.listSessions)
	authed.POST("/games/:id/check-in", s.require(playRoles...), s.checkIn)
	admin.GET("/promotions", s.listPromotions)
	admin.POST("/promotions/:id/approve", s.decidePromotion(true))
	admin.POST("/promotions/:id/reject", s.decidePromotion(false))
}

// IdempotencyHeader names a create that a retry must not repeat.
const IdempotencyHeader = "Idempotency-Key"

var validKey = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// idempotencyKey reads the Idempotency-Key header ("" when absent).
func idempotencyKey(c *gin.Context) (string, error) {
	k := c.GetHeader(IdempotencyHeader)
	if k != "" && !validKey.MatchString(k) {
		return "", &Error{Status: http.StatusBadRequest, Code: "invalid_parameter",
			Message: "the Idempotency-Key header must be 1 to 64 of A-Z a-z 0-9 . _ -", Details: map[string]any{"parameter": IdempotencyHeader}}
	}
	return k, nil
}

// scheduleJSON is an exam schedule as the API shows it.
type scheduleJSON struct {
	ID                 string                   `json:"id"`
	TargetRank         string                   `json:"target_rank"`
	Cron               string                   `json:"cron"`
	RegistrationOpens  string                   `json:"registration_opens"`
	RegistrationCloses string                   `json:"registration_closes"`
	SessionLength      string                   `json:"session_length"`
	GamesPerCandidate  int                      `json:"games_per_candidate"`
	WinsNeeded         int                      `json:"wins_needed"`
	MinLadderRank      string                   `json:"min_ladder_rank"`
	NominationWaives   bool                     `json:"nomination_waives"`
	BoardSize          int                      `json:"board_size"`
	Rules              string                   `json:"rules"`
	TimeControl        exams.TimeControlSeconds `json:"time_control"`
	Rated              bool                     `json:"rated"`
	NeedsApproval      bool                     `json:"needs_approval"`
	CreatedBy          string                   `json:"created_by"`
	CreatedAt          time.Time                `json:"created_at"`
	NextSession        *time.Time               `json:"next_session,omitempty"`
}

func (s *Server) toScheduleJSON(sch exams.Schedule) scheduleJSON {
	out := scheduleJSON{
		ID: sch.ID, TargetRank: sch.Target.String(), Cron: sch.Cron, RegistrationOpens: sch.RegistrationOpens.String(),
		RegistrationCloses: sch.RegistrationCloses.String(), SessionLength: sch.SessionLength.String(),
		GamesPerCandidate: sch.Games, WinsNeeded: sch.WinsNeeded, MinLadderRank: sch.MinLadderRank.String(),
		NominationWaives: sch.NominationWaives, BoardSize: sch.BoardSize, Rules: sch.Rules, TimeControl: exams.SecondsOf(sch.TimeControl),
		Rated: sch.Rated, NeedsApproval: sch.NeedsApproval, CreatedBy: sch.CreatedBy, CreatedAt: sch.CreatedAt.UTC(),
	}
	if next, err := s.deps.Exams.NextSession(sch); err == nil && !next.IsZero() {
		n := next.UTC()
		out.NextSession = &n
	}
	return out
}

func (s *Server) createExam(c *gin.Context) {
	key, err := idempotencyKey(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var d exams.Draft
	if err := decodeJSON(c, &d); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	sch, err := s.deps.Exams.CreateSchedule(c.Request.Context(), key, d, by.Username)
	// Mapped here, not in the table: only this route makes the schedule id
	// the Idempotency-Key. The admin page passes its form's id to the same
	// call, and there the same error is a taken id (the table's conflict).
	if errors.Is(err, exams.ErrConflict) {
		err = &Error{Status: http.StatusConflict, Code: "idempotency_key_reused",
			Message: "the Idempotency-Key names another exam schedule", Details: map[string]any{"id": key}}
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, s.toScheduleJSON(sch))
}

func (s *Server) listExams(c *gin.Context) {
	all, err := s.deps.Exams.Schedules(c.Request.Context())
	answerList(s, c, all, err, func(x exams.Schedule) string { return x.ID }, s.toScheduleJSON)
}

// registrationIn is the body of POST /exams/{id}/registrations: a player
// registers themselves (player empty or their own name); a teacher
// nominates a student of one of their classes (schools.Service.Teaches;
// the teacher recorded as the nominator), or registers themselves.
type registrationIn struct {
	Player string `json:"player"`
	Role   string `json:"role"` // candidate (default) or examiner
}

type registrationJSON struct {
	ID          string    `json:"id"`
	ScheduleID  string    `json:"schedule_id"`
	SessionID   string    `json:"session_id"`
	SessionAt   time.Time `json:"session_at"`
	Player      string    `json:"player"`
	Role        string    `json:"role"`
	NominatedBy string    `json:"nominated_by,omitempty"`
	Waived      bool      `json:"eligibility_waived"`
	LadderScore int       `json:"ladder_score"`
	At          time.Time `json:"at"`
}

func (s *Server) registerForExam(c *gin.Context) {
	var in registrationIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	// The role is checked before anything else: the service checks it
	// only after the schedule's window, so a bad role was answered
	// "registration not open" most of the week, and echoed whole.
	if in.Role != "" && in.Role != exams.RoleCandidate && in.Role != exams.RoleExaminer {
		got := strconv.Quote(in.Role)
		if len(in.Role) > 32 {
			got = fmt.Sprintf("a text of %d bytes", len(in.Role))
		}
		s.fail(c, &exams.RefusalError{Code: exams.RefuseRole, Reason: "role must be " + exams.RoleCandidate + " or " + exams.RoleExaminer + ", not " + got})
		return
	}
	ctx := c.Request.Context()
	caller, _ := principalOf(c)
	req := exams.RegisterRequest{ScheduleID: c.Param("id"), Player: caller.Username, Role: in.Role}
	if in.Player != "" {
		asked, err := bodyUsername("player", in.Player)
		var name string
		if err == nil {
			name, err = s.deps.Players.Playable(ctx, asked)
		}
		if errors.Is(err, players.ErrNotFound) || errors.Is(err, players.ErrCannotPlay) {
			err = &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no player " + asked, Details: map[string]any{"field": "player"}}
		}
		if err != nil {
			s.fail(c, err)
			return
		}
		if name != caller.Username {
			if err := s.forStudent(ctx, caller, name, "players register themselves; only a teacher nominates another player"); err != nil {
				s.fail(c, err)
				return
			}
			req.Player, req.NominatedBy = name, caller.Username
		}
	}
	r, created, err := s.deps.Exams.Register(ctx, req)
	if err != nil {
		s.fail(c, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	c.JSON(status, registrationJSON{ID: r.ID, ScheduleID: r.ScheduleID, SessionID: r.SessionID, SessionAt: r.SessionAt.UTC(),
		Player: r.Player, Role: r.Role, NominatedBy: r.NominatedBy, Waived: r.Waived, LadderScore: r.LadderScore, At: r.At.UTC()})
}

// withdrawFromExam takes back the caller's registration for the
// schedule's next session (?player= names a student of the teacher's
// instead), before that session is paired: 204, or 422 with reason_code
// not_registered or registration_closed.
func (s *Server) withdrawFromExam(c *gin.Context) {
	ctx := c.Request.Context()
	caller, _ := principalOf(c)
	player := caller.Username
	name, err := queryUsername(c, "player")
	if err != nil {
		s.fail(c, err)
		return
	}
	if name != "" && name != caller.Username {
		if err := s.forStudent(ctx, caller, name, "players withdraw themselves; only a teacher withdraws a student"); err != nil {
			s.fail(c, err)
			return
		}
		player = name
	}
	if _, err := s.deps.Exams.Withdraw(ctx, c.Param("id"), player); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

// examGameJSON is one game of a session.
type examGameJSON struct {
	ID      string            `json:"id"`      // the exam game
	GameID  string            `json:"game_id"` // the stored (pending) game: check in and submit under it
	Black   string            `json:"black"`
	White   string            `json:"white"`
	Settled *exams.Settlement `json:"settled,omitempty"`
}

// standingJSON is one candidate's record in a session.
type standingJSON struct {
	Player      string      `json:"player"`
	Tally       exams.Tally `json:"tally"`
	Short       int         `json:"short,omitempty"` // games the pairing could not give
	Result      string      `json:"result,omitempty"`
	PromotionID string      `json:"promotion_id,omitempty"`
}

type sessionJSON struct {
	ID                string         `json:"id"`
	ScheduleID        string         `json:"schedule_id"`
	At                time.Time      `json:"at"`
	Deadline          time.Time      `json:"deadline"`
	State             string         `json:"state"`
	TargetRank        string         `json:"target_rank"`
	GamesPerCandidate int            `json:"games_per_candidate"`
	WinsNeeded        int            `json:"wins_needed"`
	NeedsApproval     bool           `json:"needs_approval"`
	Candidates        []string       `json:"candidates"`
	Examiners         []string       `json:"examiners"`
	Games             []examGameJSON `json:"games"`
	Standings         []standingJSON `json:"standings"`
}

func (s *Server) listSessions(c *gin.Context) {
	ctx := c.Request.Context()
	if _, err := s.deps.Exams.Schedule(ctx, c.Param("id")); err != nil {
		s.fail(c, err)
		return
	}
	all, err := s.deps.Exams.Sessions(ctx, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	results := map[string]exams.Result{}
	var rerr error
	show := func(x exams.Session) sessionJSON {
		out := sessionJSON{ID: x.ID, ScheduleID: x.ScheduleID, At: x.At.UTC(), Deadline: x.Deadline.UTC(), State: x.State,
			TargetRank: x.Target.String(), GamesPerCandidate: x.Games, WinsNeeded: x.WinsNeeded, NeedsApproval: x.Approval,
			Candidates: nonNilStrings(x.Candidates), Examiners: nonNilStrings(x.Examiners), Games: []examGameJSON{}, Standings: []standingJSON{}}
		for _, g := range x.Pairing {
			out.Games = append(out.Games, examGameJSON{ID: g.ID, GameID: exams.GameID(g.ID), Black: g.Black, White: g.White, Settled: g.Settled})
		}
		if x.State == exams.SessionGrading || x.State == exams.SessionGraded {
			rs, err := s.deps.Exams.Results(ctx, x.ID)
			rerr = errors.Join(rerr, err)
			for _, r := range rs {
				results[r.ID] = r
			}
		}
		for _, p := range x.Candidates {
			st := standingJSON{Player: p, Tally: exams.TallyGames(p, x.Pairing), Short: x.Short[p]}
			if r, ok := results[x.ID+"/"+p]; ok {
				st.Result, st.PromotionID = r.State, PromotionID(r.ID)
			}
			out.Standings = append(out.Standings, st)
		}
		return out
	}
	page, err := pageAfter(c, all, func(x exams.Session) string { return x.ID }, show)
	if err == nil {
		err = rerr
	}
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, page)
}

func nonNilStrings(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// PromotionID is the URL-safe id of an exam result (a session id and a
// player, which hold ':' and '/'): its unpadded base64url.
func PromotionID(resultID string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(resultID))
}

func resultIDOf(promotionID string) (string, error) {
	b, err := base64.RawURLEncoding.DecodeString(promotionID)
	if err != nil || len(b) == 0 {
		return "", &Error{Status: http.StatusNotFound, Code: "not_found", Message: "no promotion " + promotionID}
	}
	return string(b), nil
}

// promotionJSON is an exam result as the approval queue shows it.
type promotionJSON struct {
	ID         string      `json:"id"`
	SessionID  string      `json:"session_id"`
	ScheduleID string      `json:"schedule_id"`
	Player     string      `json:"player"`
	TargetRank string      `json:"target_rank"`
	Tally      exams.Tally `json:"tally"`
	WinsNeeded int         `json:"wins_needed"`
	Evidence   []string    `json:"evidence"`
	State      string      `json:"state"`
	GradedAt   time.Time   `json:"graded_at"`
	DecidedBy  string      `json:"decided_by,omitempty"`
	Reason     string      `json:"reason,omitempty"`
	DecidedAt  *time.Time  `json:"decided_at,omitempty"`
}

func (s *Server) toPromotionJSON(r exams.Result) promotionJSON {
	out := promotionJSON{ID: PromotionID(r.ID), SessionID: r.SessionID, ScheduleID: r.ScheduleID, Player: r.Player,
		TargetRank: r.Target.String(), Tally: r.Tally, WinsNeeded: r.WinsNeeded, Evidence: []string{}, State: r.State,
		GradedAt: r.GradedAt.UTC(), DecidedBy: r.DecidedBy, Reason: r.Reason}
	for _, id := range r.Evidence {
		out.Evidence = append(out.Evidence, exams.GameID(id))
	}
	if !r.DecidedAt.IsZero() {
		t := r.DecidedAt.UTC()
		out.DecidedAt = &t
	}
	return out
}

// resultStates are the states ?state= accepts.
var resultStates = []string{exams.ResultAwaiting, exams.ResultApproved, exams.ResultRejected, exams.ResultCertified, exams.ResultPassed, exams.ResultFailed}

func (s *Server) listPromotions(c *gin.Context) {
	state := c.DefaultQuery("state", exams.ResultAwaiting)
	if !slices.Contains(resultStates, state) {
		s.fail(c, &Error{Status: http.StatusBadRequest, Code: "invalid_parameter", Message: "state must be one of " + joinQuoted(resultStates),
			Details: map[string]any{"parameter": "state"}})
		return
	}
	all, err := s.deps.Exams.Promotions(c.Request.Context(), state)
	answerList(s, c, all, err, promotionKey, s.toPromotionJSON)
}

// promotionKey orders the queue as the store lists it (oldest graded,
// then by id), as text: so a page goes on after a promotion decided
// while a client pages (pageAfter).
func promotionKey(r exams.Result) string {
	return r.GradedAt.UTC().Format("20060102T150405.000000000") + "|" + r.ID
}

// reasonIn is the body of every admin tool that needs only a reason.
type reasonIn struct {
	Reason string `json:"reason"`
}

// readReason decodes a body whose reason is required.
func readReason(c *gin.Context, v any, reason *string) error {
	if err := decodeJSON(c, v); err != nil {
		return err
	}
	if rating.Blank(*reason) { // spaces or only invisible characters: no reason
		return requireFields("reason", "")
	}
	return nil
}

func (s *Server) decidePromotion(approve bool) gin.HandlerFunc {
	return func(c *gin.Context) {
		id, err := resultIDOf(c.Param("id"))
		if err != nil {
			s.fail(c, err)
			return
		}
		var in reasonIn
		if err := readReason(c, &in, &in.Reason); err != nil {
			s.fail(c, err)
			return
		}
		by, _ := principalOf(c)
		decide := s.deps.Exams.Reject
		if approve {
			decide = s.deps.Exams.Approve
		}
		r, err := decide(c.Request.Context(), id, by.Username, in.Reason)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.JSON(http.StatusOK, s.toPromotionJSON(r))
	}
}

// checkInJSON answers a check-in.
type checkInJSON struct {
	GameID  string   `json:"game_id"`
	Player  string   `json:"player"`
	Present []string `json:"present"`
}

// checkIn records that the caller, a player of the pending game, showed
// up: an exam game unplayed at its deadline is a forfeit of the side that
// did not check in.
func (s *Server) checkIn(c *gin.Context) {
	caller, _ := principalOf(c)
	ctx := c.Request.Context()
	g, err := s.deps.Games.CheckIn(ctx, c.Param("id"), caller.Username)
	if err != nil {
		s.fail(c, err)
		return
	}
	present, err := s.deps.Games.Present(ctx, g.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, checkInJSON{GameID: g.ID, Player: caller.Username, Present: nonNilStrings(present)})
}

// forStudent is the one check of a caller acting for another player in
// the exams: only a teacher, and only for a student of their own classes.
// notTeacher is the refusal's message for any other role.
func (s *Server) forStudent(ctx context.Context, caller players.Principal, name, notTeacher string) error {
	if caller.Role != players.RoleTeacher {
		return &Error{Status: http.StatusForbidden, Code: "forbidden", Message: notTeacher,
			Details: map[string]any{"role": string(caller.Role), "need_role": []string{string(players.RoleTeacher)}}}
	}
	ok, err := s.deps.Schools.Teaches(ctx, caller, name)
	if err != nil {
		return err
	}
	if !ok {
		return &Error{Status: http.StatusForbidden, Code: "not_your_student", Message: name + " is not a student of a class you teach",
			Details: map[string]any{"player": name}}
	}
	return nil
}

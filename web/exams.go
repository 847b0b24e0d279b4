package web

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"github.com/weiqi-platform/rank/exams"
)

type scheduleRow struct {
	exams.Schedule
	Next     time.Time
	Sessions []exams.Session
}

type examsData struct {
	Schedules     []scheduleRow
	Registrations []exams.Registration
	Upcoming      map[string]bool   // registrations whose session is still to come: these may be withdrawn
	ExamNames     map[string]string // schedule id → the exam as the schedules name it: "1段 升段赛 (weekly-1d)"
	Results       []exams.Result
	Notice        string // catalogue key of what was done
	Error         string
	Refusal       string // the refusal's catalogue key ("" when not a refusal)
	Detail        string
	ErrorSchedule string
	// A refused new-schedule form (the admin's): the refusal and the
	// fields as typed, given back in the form.
	Draft       map[string]string
	DraftError  string
	DraftDetail string
}

// examSessionsShown bounds the sessions listed per schedule.
const examSessionsShown = 3

func (s *Server) examsData(c *ctx) (examsData, error) {
	ctx := c.r.Context()
	var d examsData
	all, err := s.d.Exams.Schedules(ctx)
	if err != nil {
		return d, err
	}
	d.ExamNames = make(map[string]string, len(all))
	for _, sch := range all {
		d.ExamNames[sch.ID] = examName(c.lang, sch)
		row := scheduleRow{Schedule: sch}
		row.Next, _ = s.d.Exams.NextSession(sch)
		sess, err := s.d.Exams.Sessions(ctx, sch.ID)
		if err != nil {
			return d, err
		}
		slices.SortFunc(sess, func(a, b exams.Session) int { return b.At.Compare(a.At) })
		if len(sess) > examSessionsShown {
			sess = sess[:examSessionsShown]
		}
		row.Sessions = sess
		d.Schedules = append(d.Schedules, row)
	}
	if c.authed {
		if d.Registrations, d.Results, err = s.d.Exams.OfPlayers(ctx, []string{c.user.Username}); err != nil {
			return d, err
		}
		now := s.now()
		d.Upcoming = map[string]bool{}
		for _, r := range d.Registrations {
			d.Upcoming[r.ID] = r.SessionAt.After(now)
		}
	}
	return d, nil
}

// examName names a schedule's exam as the pages do: its target and its id.
func examName(lang string, sch exams.Schedule) string {
	return tr(lang, "exams.target", rankText(lang, sch.Target)) + " (" + sch.ID + ")"
}

func (s *Server) examsPage(c *ctx) error {
	d, err := s.examsData(c)
	if err != nil {
		return err
	}
	if c.r.URL.Query().Get("registered") != "" {
		d.Notice = "exams.registered"
	}
	if c.r.URL.Query().Get("withdrawn") != "" {
		d.Notice = "exams.withdrawn"
	}
	c.render(http.StatusOK, "exams", "exams.title", d)
	return nil
}

func (s *Server) examRegister(c *ctx) error {
	id := c.r.PathValue("id")
	_, _, err := s.d.Exams.Register(c.r.Context(), exams.RegisterRequest{ScheduleID: id, Player: c.user.Username})
	if err == nil {
		return c.redirect("/exams?registered=1")
	}
	return s.examRefused(c, id, err, "")
}

// examWithdraw takes the caller's registration for the schedule's next
// session back (before its pairing; after, the refusal says why).
func (s *Server) examWithdraw(c *ctx) error {
	id := c.r.PathValue("id")
	if _, err := s.d.Exams.Withdraw(c.r.Context(), id, c.user.Username); err != nil {
		return s.examRefused(c, id, err, "exams.withdraw_refused")
	}
	return c.redirect("/exams?withdrawn=1")
}

// examRefused shows the exams page with the refusal of a registration or
// a withdrawal: its status, its heading (key, or the error code's) and
// its reason in the page's language.
func (s *Server) examRefused(c *ctx, id string, err error, key string) error {
	status, errKey, detail, _ := c.classified(err)
	if status >= 500 || status == http.StatusNotFound {
		return err
	}
	d, derr := s.examsData(c)
	if derr != nil {
		return derr
	}
	c.back = "/exams" // the page of the form, not /exams/{id}
	d.Error, d.Detail, d.ErrorSchedule = errKey, detail, id
	var refusal *exams.RefusalError
	if errors.As(err, &refusal) {
		if key != "" {
			d.Error = key
		}
		if _, ok := catalogues["en"]["refusal."+refusal.Code]; ok {
			d.Refusal = "refusal." + refusal.Code
		}
	}
	c.render(status, "exams", "exams.title", d)
	return nil
}

// adminCreateSchedule makes an exam schedule from the admin's form (the
// exams service validates every field and names the bad one).
func (s *Server) adminCreateSchedule(c *ctx) error {
	f := c.r.PostForm
	d := exams.Draft{TargetRank: f.Get("target_rank"), Cron: f.Get("cron"), SessionLength: f.Get("session_length"),
		RegistrationOpens: f.Get("registration_opens"), NeedsApproval: f.Get("needs_approval") == "on"}
	for field, p := range map[string]**int{"games": &d.GamesPerCandidate, "wins": &d.WinsNeeded} {
		if v := f.Get(field); v != "" {
			n, err := strconv.Atoi(v)
			if err != nil {
				return s.scheduleRefused(c, &pageError{status: http.StatusUnprocessableEntity, key: "err.invalid_field", field: field})
			}
			*p = &n
		}
	}
	if _, err := s.d.Exams.CreateSchedule(c.r.Context(), f.Get("id"), d, c.user.Username); err != nil {
		return s.scheduleRefused(c, err)
	}
	return c.redirect("/exams")
}

// refusal is how a form shows err above it, as the error page would:
// the status, the catalogue key and the detail in the page's language;
// ok is false for what is no refusal of the form's fields (the caller
// may not, nothing there, a store's trouble): the error page shows it.
func (c *ctx) refusal(err error) (status int, key, detail string, ok bool) {
	status, key, detail, _ = c.classified(err)
	ok = status < 500 && status != http.StatusUnauthorized && status != http.StatusForbidden && status != http.StatusNotFound
	return status, key, detail, ok
}

// scheduleForm are the new-schedule form's fields.
var scheduleForm = []string{"id", "target_rank", "cron", "session_length", "registration_opens", "games", "wins", "needs_approval"}

// scheduleRefused shows the exams page with the refused new-schedule
// form: the reason (as the error page would say it) above it and every
// field as the admin typed it, so one bad field (a cron, a number) does
// not cost the other seven. A store's trouble is the error page.
func (s *Server) scheduleRefused(c *ctx, err error) error {
	status, key, detail, ok := c.refusal(err)
	if !ok {
		return err
	}
	d, derr := s.examsData(c)
	if derr != nil {
		return derr
	}
	c.back = "/exams" // the page of the form, not /admin
	d.Draft, d.DraftError, d.DraftDetail = map[string]string{}, key, detail
	for _, k := range scheduleForm {
		d.Draft[k] = c.r.PostFormValue(k)
	}
	c.render(status, "exams", "exams.title", d)
	return nil
}

type sessionView struct {
	exams.Session
	Games   []examGame
	Results []exams.Result
}

type examGame struct {
	exams.Game
	GameID string // the stored game of the intake
}

type scheduleData struct {
	Schedule exams.Schedule
	Sessions []sessionView
}

// examSchedule shows one schedule's latest sessions: the pairings (each
// game linked) and the standings (each candidate's tally and grade).
func (s *Server) examSchedule(c *ctx) error {
	ctx := c.r.Context()
	sch, err := s.d.Exams.Schedule(ctx, c.r.PathValue("id"))
	if err != nil {
		return err
	}
	sess, err := s.d.Exams.Sessions(ctx, sch.ID)
	if err != nil {
		return err
	}
	slices.SortFunc(sess, func(a, b exams.Session) int { return b.At.Compare(a.At) })
	if len(sess) > examSessionsShown {
		sess = sess[:examSessionsShown]
	}
	d := scheduleData{Schedule: sch}
	for _, x := range sess {
		v := sessionView{Session: x}
		for _, g := range x.Pairing {
			v.Games = append(v.Games, examGame{Game: g, GameID: exams.GameID(g.ID)})
		}
		if v.Results, err = s.d.Exams.Results(ctx, x.ID); err != nil {
			return err
		}
		d.Sessions = append(d.Sessions, v)
	}
	c.render(http.StatusOK, "schedule", "exams.schedule_title", d)
	return nil
}

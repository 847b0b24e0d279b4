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

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/schools"
)

// Schools and classes (issue 13): thin handlers over schools.Service,
// which decides who may do what (the role guards here only keep out the
// roles that can never).
func (s *Server) schoolRoutes(authed *gin.RouterGroup) {
	staff := s.require(players.RoleAdmin, players.RoleTeacher)
	sc := authed.Group("/schools")
	sc.POST("", s.require(players.RoleAdmin), s.createSchool)
	sc.GET("", staff, s.listSchools)
	sc.GET("/:id", staff, s.getSchool)
	sc.PATCH("/:id", staff, s.updateSchool)
	sc.POST("/:id/archive", s.require(players.RoleAdmin), s.archiveSchool)
	sc.GET("/:id/history", staff, s.schoolHistory)
	sc.POST("/:id/teachers", staff, s.addTeacher)
	sc.DELETE("/:id/teachers/:username", staff, s.removeTeacher)
	sc.GET("/:id/classes", staff, s.listClasses)
	sc.POST("/:id/classes", staff, s.createClass)
	sc.GET("/:id/table", staff, s.schoolTable)

	everyone := s.require(playRoles...)
	cl := authed.Group("/classes")
	cl.GET("", everyone, s.myClasses)
	cl.POST("/join", s.require(players.RolePlayer), s.joinClass)
	cl.GET("/:id", everyone, s.getClass)
	cl.PATCH("/:id", staff, s.updateClass)
	cl.POST("/:id/archive", staff, s.archiveClass)
	cl.GET("/:id/history", staff, s.classHistory)
	cl.POST("/:id/teachers", staff, s.addCoTeacher)
	cl.DELETE("/:id/teachers/:username", staff, s.removeCoTeacher)
	cl.POST("/:id/invite-code", staff, s.rotateCode)
	cl.POST("/:id/leave", s.require(players.RolePlayer), s.leaveClass)
	cl.POST("/:id/students", staff, s.addStudents)
	cl.POST("/:id/managed-students", staff, s.addManaged)
	cl.DELETE("/:id/students/:username", staff, s.removeStudent)
	cl.POST("/:id/students/:username/move", staff, s.moveStudent)
	cl.POST("/:id/students/:username/password", staff, s.resetPassword)
	cl.POST("/:id/students/:username/placement", staff, s.placeStudent)
	cl.GET("/:id/students/:username/progress", everyone, s.studentProgress)
	cl.GET("/:id/table", staff, s.classTable)
	cl.GET("/:id/progress", staff, s.classProgress)
}

// --- shapes

type changeJSON struct {
	What    string    `json:"what"`
	Subject string    `json:"subject,omitempty"`
	By      string    `json:"by"`
	At      time.Time `json:"at"`
	Reason  string    `json:"reason,omitempty"`
}

func toChangeJSON(c schools.Change) changeJSON {
	return changeJSON{What: c.What, Subject: c.Subject, By: c.By, At: c.At.UTC(), Reason: c.Reason}
}

type teacherJSON struct {
	Username string    `json:"username"`
	Head     bool      `json:"head"`
	Since    time.Time `json:"since"`
	By       string    `json:"by,omitempty"`
}

type schoolJSON struct {
	ID        string        `json:"id"`
	Name      string        `json:"name"`
	TimeZone  string        `json:"time_zone"`
	Scale     string        `json:"scale"`
	Teachers  []teacherJSON `json:"teachers"`
	Archived  bool          `json:"archived"`
	CreatedAt time.Time     `json:"created_at"`
	Version   int64         `json:"version"`
	Change    changeJSON    `json:"change"`
}

func toSchoolJSON(x schools.School) schoolJSON {
	out := schoolJSON{ID: x.ID, Name: x.Name, TimeZone: x.TimeZone, Scale: string(x.Scale), Teachers: []teacherJSON{},
		Archived: x.Archived, CreatedAt: x.Created.UTC(), Version: x.Version, Change: toChangeJSON(x.Change)}
	for _, t := range x.Teachers {
		out.Teachers = append(out.Teachers, teacherJSON{Username: t.Username, Head: t.Head, Since: t.Since.UTC(), By: t.By})
	}
	return out
}

type memberJSON struct {
	Username           string    `json:"username"`
	Name               string    `json:"name,omitempty"`
	Since              time.Time `json:"since"`
	Via                string    `json:"via,omitempty"`
	By                 string    `json:"by,omitempty"`
	Managed            bool      `json:"managed,omitempty"`
	Rank               string    `json:"rank,omitempty"`
	ShownRank          string    `json:"shown_rank,omitempty"`
	CertifiedRank      string    `json:"certified_rank,omitempty"`
	ShownCertifiedRank string    `json:"shown_certified_rank,omitempty"`
}

type classJSON struct {
	ID            string       `json:"id"`
	SchoolID      string       `json:"school_id"`
	SchoolName    string       `json:"school_name,omitempty"`
	Scale         string       `json:"scale,omitempty"`
	Name          string       `json:"name"`
	Capacity      int          `json:"capacity,omitempty"`
	EndsOn        string       `json:"ends_on,omitempty"`
	Teachers      []string     `json:"teachers"`
	Students      []memberJSON `json:"students"`
	StudentCount  int          `json:"student_count"`
	InviteCode    string       `json:"invite_code,omitempty"`
	CodeExpiresAt *time.Time   `json:"code_expires_at,omitempty"`
	Archived      bool         `json:"archived"`
	CreatedAt     time.Time    `json:"created_at"`
	Version       int64        `json:"version"`
	Change        changeJSON   `json:"change"`
	Access        string       `json:"access,omitempty"`
}

func rankOrEmpty(r ranks.Rank) string {
	if r.IsZero() {
		return ""
	}
	return r.String()
}

func toClassJSON(c schools.Class) classJSON {
	out := classJSON{ID: c.ID, SchoolID: c.SchoolID, Name: c.Name, Capacity: c.Capacity, EndsOn: c.EndsOn,
		Teachers: nonNilStrings(c.Teachers), Students: []memberJSON{}, StudentCount: len(c.Students), InviteCode: c.Code,
		Archived: c.Archived, CreatedAt: c.Created.UTC(), Version: c.Version, Change: toChangeJSON(c.Change)}
	if !c.CodeExpires.IsZero() {
		t := c.CodeExpires.UTC()
		out.CodeExpiresAt = &t
	}
	for _, m := range c.Students {
		out.Students = append(out.Students, memberJSON{Username: m.Username, Name: m.Name, Since: m.Since.UTC(), Via: m.Via, By: m.By, Managed: m.Managed})
	}
	return out
}

func toClassViewJSON(v schools.ClassView) classJSON {
	out := toClassJSON(v.Class)
	out.SchoolName, out.Scale, out.Access = v.School.Name, string(v.School.Scale), v.Access.String()
	for i, m := range v.Classmates {
		if i < len(out.Students) && out.Students[i].Username == m.Username {
			out.Students[i].Rank, out.Students[i].ShownRank = rankOrEmpty(m.Rank), rankOrEmpty(m.Shown)
			if m.Unsettled && out.Students[i].ShownRank != "" {
				out.Students[i].ShownRank += "?" // as the profile shows it
			}
			out.Students[i].CertifiedRank, out.Students[i].ShownCertifiedRank = rankOrEmpty(m.Certified), rankOrEmpty(m.ShownCertified)
		}
	}
	return out
}

// --- schools

type schoolIn struct {
	Name         string   `json:"name"`
	TimeZone     string   `json:"time_zone"`
	Scale        string   `json:"scale"`
	HeadTeachers []string `json:"head_teachers"`
}

func (s *Server) createSchool(c *gin.Context) {
	key, err := idempotencyKey(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var in schoolIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	sch, err := s.deps.Schools.CreateSchool(c.Request.Context(), by, schools.SchoolDraft{ID: key, Name: in.Name, TimeZone: in.TimeZone, Scale: in.Scale, HeadTeachers: in.HeadTeachers})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, toSchoolJSON(sch))
}

func (s *Server) listSchools(c *gin.Context) {
	by, _ := principalOf(c)
	all, err := s.deps.Schools.Schools(c.Request.Context(), by)
	answerList(s, c, all, err, func(x schools.School) string { return x.ID }, toSchoolJSON)
}

func (s *Server) getSchool(c *gin.Context) {
	by, _ := principalOf(c)
	sch, _, err := s.deps.Schools.School(c.Request.Context(), by, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toSchoolJSON(sch))
}

type schoolPatchIn struct {
	Name     *string `json:"name"`
	TimeZone *string `json:"time_zone"`
	Scale    *string `json:"scale"`
}

func (s *Server) updateSchool(c *gin.Context) {
	var in schoolPatchIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	sch, err := s.deps.Schools.UpdateSchool(c.Request.Context(), by, c.Param("id"), schools.SchoolPatch{Name: in.Name, TimeZone: in.TimeZone, Scale: in.Scale})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toSchoolJSON(sch))
}

// optionalReason reads a body that may be empty and may hold a reason.
func optionalReason(c *gin.Context) (string, error) {
	var in reasonIn
	if c.Request.ContentLength == 0 {
		return "", nil
	}
	if err := decodeJSON(c, &in); err != nil {
		return "", err
	}
	return in.Reason, nil
}

func (s *Server) archiveSchool(c *gin.Context) {
	reason, err := optionalReason(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	sch, err := s.deps.Schools.ArchiveSchool(c.Request.Context(), by, c.Param("id"), reason)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toSchoolJSON(sch))
}

func (s *Server) schoolHistory(c *gin.Context) {
	by, _ := principalOf(c)
	vs, err := s.deps.Schools.SchoolHistory(c.Request.Context(), by, c.Param("id"))
	answerList(s, c, vs, err, func(x schools.School) string { return strconv.FormatInt(x.Version, 10) }, toSchoolJSON)
}

type teacherIn struct {
	Username string `json:"username"`
	Head     bool   `json:"head"`
	Password string `json:"password"`
}

func (s *Server) addTeacher(c *gin.Context) {
	var in teacherIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	if err := requireFields("username", in.Username); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	sch, err := s.deps.Schools.AddTeacher(c.Request.Context(), by, c.Param("id"), schools.TeacherDraft{Username: in.Username, Head: in.Head, Password: in.Password})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toSchoolJSON(sch))
}

func (s *Server) removeTeacher(c *gin.Context) {
	by, _ := principalOf(c)
	sch, err := s.deps.Schools.RemoveTeacher(c.Request.Context(), by, c.Param("id"), c.Param("username"), c.Query("reason"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toSchoolJSON(sch))
}

func (s *Server) listClasses(c *gin.Context) {
	by, _ := principalOf(c)
	all, err := s.deps.Schools.Classes(c.Request.Context(), by, c.Param("id"))
	answerList(s, c, all, err, func(x schools.Class) string { return x.ID }, toClassJSON)
}

type classIn struct {
	Name          string     `json:"name"`
	Capacity      int        `json:"capacity"`
	EndsOn        string     `json:"ends_on"`
	CoTeachers    []string   `json:"co_teachers"`
	CodeExpiresAt *time.Time `json:"code_expires_at"`
}

func (s *Server) createClass(c *gin.Context) {
	key, err := idempotencyKey(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var in classIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	d := schools.ClassDraft{Name: in.Name, Capacity: in.Capacity, EndsOn: in.EndsOn, CoTeachers: in.CoTeachers, Key: key}
	if in.CodeExpiresAt != nil {
		d.CodeExpires = *in.CodeExpiresAt
	}
	cl, err := s.deps.Schools.CreateClass(c.Request.Context(), by, c.Param("id"), d)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, toClassJSON(cl))
}

// --- the tables

// wantsCSV: Accept: text/csv, or ?format=csv (a link in a page).
func wantsCSV(c *gin.Context) bool {
	return strings.Contains(c.GetHeader("Accept"), CSVType) || c.Query("format") == "csv"
}

// langOf is the language of a CSV: ?lang=, else the first of
// Accept-Language that is zh or en, else English.
func langOf(c *gin.Context) (string, error) {
	if v, ok := c.GetQuery("lang"); ok {
		l, ok := schools.ParseLang(v)
		if !ok {
			return "", badParam("lang", "lang must be zh or en, got "+strconv.Quote(v))
		}
		return l, nil
	}
	best, bestQ := schools.LangEN, -1.0
	for _, part := range strings.Split(c.GetHeader("Accept-Language"), ",") {
		tag, params, _ := strings.Cut(strings.TrimSpace(part), ";")
		q := 1.0
		if v, ok := strings.CutPrefix(strings.TrimSpace(params), "q="); ok {
			if f, err := strconv.ParseFloat(v, 64); err == nil {
				q = f
			}
		}
		if l, ok := schools.ParseLang(tag); ok && q > bestQ {
			best, bestQ = l, q
		}
	}
	return best, nil
}

// tableQuery reads a table's query: from, to, since (days, checked by
// the service in the school's time zone), sort (-column for descending),
// limit and cursor (not for CSV: every row).
func tableQuery(c *gin.Context) (schools.TableQuery, error) {
	q := schools.TableQuery{From: c.Query("from"), To: c.Query("to"), Since: c.Query("since"), Sort: c.Query("sort")}
	if rest, ok := strings.CutPrefix(q.Sort, "-"); ok {
		q.Sort, q.Desc = rest, true
	}
	if wantsCSV(c) {
		return q, nil
	}
	var cur schools.Cursor
	limit, has, err := PageParams(c, &cur)
	if err != nil {
		return q, err
	}
	q.Limit = limit
	if has {
		q.After = &cur
	}
	return q, nil
}

type spanJSON struct {
	From string `json:"from"`
	To   string `json:"to"`
}

func toSpanJSON(r schools.Range) spanJSON {
	return spanJSON{From: r.From.Format(schools.DateLayout), To: r.To.Format(schools.DateLayout)}
}

type lastGameJSON struct {
	At       time.Time `json:"at"`
	GameID   string    `json:"game_id"`
	Opponent string    `json:"opponent"`
	Result   string    `json:"result"`
	Delta    int       `json:"delta"`
}

type examRegJSON struct {
	ScheduleID  string    `json:"schedule_id"`
	SessionID   string    `json:"session_id"`
	SessionAt   time.Time `json:"session_at"`
	Role        string    `json:"role"`
	NominatedBy string    `json:"nominated_by,omitempty"`
}

type examResultJSON struct {
	ScheduleID string    `json:"schedule_id"`
	SessionID  string    `json:"session_id"`
	TargetRank string    `json:"target_rank"`
	State      string    `json:"state"`
	Wins       int       `json:"wins"`
	Games      int       `json:"games"`
	GradedAt   time.Time `json:"graded_at"`
}

type rowJSON struct {
	Username           string          `json:"username"`
	Name               string          `json:"name,omitempty"`
	Managed            bool            `json:"managed"`
	JoinedAt           time.Time       `json:"joined_at"`
	Classes            []string        `json:"classes,omitempty"`
	Score              int             `json:"score"`
	Rank               string          `json:"rank"`
	ShownRank          string          `json:"shown_rank"`
	CertifiedRank      string          `json:"certified_rank,omitempty"`
	ShownCertifiedRank string          `json:"shown_certified_rank,omitempty"`
	Rating             float64         `json:"rating"`
	RD                 float64         `json:"rd"`
	Games              int             `json:"games"`
	Week               schools.Count   `json:"week"`
	Month              schools.Count   `json:"month"`
	Period             schools.Count   `json:"period"`
	ScoreSince         int             `json:"score_since"`
	RankSince          string          `json:"rank_since"`
	Change             int             `json:"change"`
	RankSteps          int             `json:"rank_steps"`
	LastGame           *lastGameJSON   `json:"last_game,omitempty"`
	ExamRegistration   *examRegJSON    `json:"exam_registration,omitempty"`
	ExamResult         *examResultJSON `json:"exam_result,omitempty"`
}

func toRowJSON(r schools.Row) rowJSON {
	out := rowJSON{Username: r.Username, Name: r.Name, Managed: r.Managed, JoinedAt: r.Joined.UTC(), Classes: r.Classes,
		Score: r.Score, Rank: r.Rank.String(), ShownRank: r.ShownRank(), CertifiedRank: rankOrEmpty(r.Certified),
		ShownCertifiedRank: rankOrEmpty(r.ShownCertified), Rating: r.Rating, RD: r.RD, Games: r.Games,
		Week: r.Week, Month: r.Month, Period: r.Period, ScoreSince: r.ScoreThen, RankSince: r.RankThen.String(),
		Change: r.Change, RankSteps: r.RankSteps}
	if g := r.LastGame; g != nil {
		out.LastGame = &lastGameJSON{At: g.At.UTC(), GameID: g.GameID, Opponent: g.Opponent, Result: g.Result, Delta: g.Delta}
	}
	if g := r.Registration; g != nil {
		out.ExamRegistration = &examRegJSON{ScheduleID: g.ScheduleID, SessionID: g.SessionID, SessionAt: g.SessionAt.UTC(), Role: g.Role, NominatedBy: g.NominatedBy}
	}
	if x := r.Result; x != nil {
		out.ExamResult = &examResultJSON{ScheduleID: x.ScheduleID, SessionID: x.SessionID, TargetRank: rankOrEmpty(x.Target), State: x.State,
			Wins: x.Wins, Games: x.Games, GradedAt: x.GradedAt.UTC()}
	}
	return out
}

type tableJSON struct {
	ClassID    string    `json:"class_id,omitempty"`
	SchoolID   string    `json:"school_id"`
	Scale      string    `json:"scale"`
	TimeZone   string    `json:"time_zone"`
	Week       spanJSON  `json:"week"`
	Month      spanJSON  `json:"month"`
	Period     spanJSON  `json:"period"`
	Since      string    `json:"since"`
	Sort       string    `json:"sort"`
	Total      int       `json:"total"`
	Items      []rowJSON `json:"items"`
	NextCursor string    `json:"next_cursor,omitempty"`
}

// answerTable answers a table as JSON (a page) or CSV (every row).
func (s *Server) answerTable(c *gin.Context, t schools.Table, name string) {
	if wantsCSV(c) {
		lang, err := langOf(c)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.Header("Content-Type", CSVType+"; charset=utf-8")
		c.Header("Content-Disposition", `attachment; filename="`+name+`.csv"`)
		c.Status(http.StatusOK)
		_ = schools.WriteTableCSV(c.Writer, t, lang)
		return
	}
	sort := t.Sort
	if t.Desc {
		sort = "-" + sort
	}
	out := tableJSON{ClassID: t.ClassID, SchoolID: t.SchoolID, Scale: string(t.Scale), TimeZone: t.TimeZone,
		Week: toSpanJSON(t.Week), Month: toSpanJSON(t.Month), Period: toSpanJSON(t.Period), Since: t.Since.Format(schools.DateLayout),
		Sort: sort, Total: t.Total, Items: []rowJSON{}}
	for _, r := range t.Rows {
		out.Items = append(out.Items, toRowJSON(r))
	}
	if t.Next != nil {
		next, err := EncodeCursor(t.Next)
		if err != nil {
			s.fail(c, err)
			return
		}
		out.NextCursor = next
	}
	c.JSON(http.StatusOK, out)
}

func (s *Server) classTable(c *gin.Context) {
	q, err := tableQuery(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	t, err := s.deps.Schools.Table(c.Request.Context(), by, c.Param("id"), q)
	if err != nil {
		err = queryFault(err)
		s.fail(c, err)
		return
	}
	s.answerTable(c, t, "class-"+t.ClassID)
}

func (s *Server) schoolTable(c *gin.Context) {
	q, err := tableQuery(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	t, err := s.deps.Schools.SchoolTable(c.Request.Context(), by, c.Param("id"), q)
	if err != nil {
		err = queryFault(err)
		s.fail(c, err)
		return
	}
	s.answerTable(c, t, "school-"+t.SchoolID)
}

type pointJSON struct {
	Date      string `json:"date"`
	Score     int    `json:"score"`
	Rank      string `json:"rank"`
	ShownRank string `json:"shown_rank"`
	Games     int    `json:"games"`
}

type rankChangeJSON struct {
	At              time.Time `json:"at"`
	Seq             int64     `json:"seq"`
	Cause           string    `json:"cause"`
	CauseID         string    `json:"cause_id"`
	Actor           string    `json:"actor,omitempty"`
	Reason          string    `json:"reason,omitempty"`
	ScoreBefore     int       `json:"score_before"`
	ScoreAfter      int       `json:"score_after"`
	RankBefore      string    `json:"rank_before"`
	RankAfter       string    `json:"rank_after"`
	CertifiedBefore string    `json:"certified_before,omitempty"`
	CertifiedAfter  string    `json:"certified_after,omitempty"`
}

type seriesJSON struct {
	Username    string           `json:"username"`
	Name        string           `json:"name,omitempty"`
	StartScore  int              `json:"start_score"`
	Points      []pointJSON      `json:"points"`
	RankChanges []rankChangeJSON `json:"rank_changes"`
}

type progressJSON struct {
	ClassID  string       `json:"class_id"`
	From     string       `json:"from"`
	To       string       `json:"to"`
	By       string       `json:"by"`
	Scale    string       `json:"scale"`
	TimeZone string       `json:"time_zone"`
	Series   []seriesJSON `json:"series"`
}

func (s *Server) answerProgress(c *gin.Context, p schools.Progress, name string) {
	if wantsCSV(c) {
		lang, err := langOf(c)
		if err != nil {
			s.fail(c, err)
			return
		}
		c.Header("Content-Type", CSVType+"; charset=utf-8")
		c.Header("Content-Disposition", `attachment; filename="`+name+`.csv"`)
		c.Status(http.StatusOK)
		_ = schools.WriteProgressCSV(c.Writer, p, lang)
		return
	}
	out := progressJSON{ClassID: p.ClassID, From: p.Range.From.Format(schools.DateLayout), To: p.Range.To.Format(schools.DateLayout),
		By: p.Step, Scale: string(p.Scale), TimeZone: p.TimeZone, Series: []seriesJSON{}}
	for _, x := range p.Series {
		sj := seriesJSON{Username: x.Username, Name: x.Name, StartScore: x.Start, Points: []pointJSON{}, RankChanges: []rankChangeJSON{}}
		for _, pt := range x.Points {
			sj.Points = append(sj.Points, pointJSON{Date: pt.Date, Score: pt.Score, Rank: pt.Rank.String(), ShownRank: pt.Shown.String(), Games: pt.Games})
		}
		for _, ch := range x.Changes {
			sj.RankChanges = append(sj.RankChanges, rankChangeJSON{At: ch.At.UTC(), Seq: ch.Seq, Cause: ch.Cause, CauseID: ch.CauseID, Actor: ch.Actor,
				Reason: ch.Reason, ScoreBefore: ch.ScoreBefore, ScoreAfter: ch.ScoreAfter, RankBefore: ch.RankBefore, RankAfter: ch.RankAfter,
				CertifiedBefore: ch.CertifiedBefore, CertifiedAfter: ch.CertifiedAfter})
		}
		out.Series = append(out.Series, sj)
	}
	c.JSON(http.StatusOK, out)
}

// queryFault answers a field the service refused as the query parameter
// it came from (invalid_parameter, as every route's query), not as a
// body's invalid_field: the tables' and progress' fields are all query.
func queryFault(err error) error {
	var fe *schools.FieldError
	if errors.As(err, &fe) {
		return badParam(fe.Field, fe.Field+": "+fe.Reason)
	}
	return err
}

// progressQuery reads from, to and by.
func progressQuery(c *gin.Context) schools.ProgressQuery {
	return schools.ProgressQuery{From: c.Query("from"), To: c.Query("to"), Step: c.Query("by")}
}

func (s *Server) classProgress(c *gin.Context) {
	by, _ := principalOf(c)
	p, err := s.deps.Schools.Progress(c.Request.Context(), by, c.Param("id"), progressQuery(c))
	if err != nil {
		err = queryFault(err)
		s.fail(c, err)
		return
	}
	s.answerProgress(c, p, "progress-"+p.ClassID)
}

func (s *Server) studentProgress(c *gin.Context) {
	by, _ := principalOf(c)
	p, err := s.deps.Schools.StudentProgress(c.Request.Context(), by, c.Param("id"), c.Param("username"), progressQuery(c))
	if err != nil {
		err = queryFault(err)
		s.fail(c, err)
		return
	}
	s.answerProgress(c, p, "progress-"+strings.ToLower(c.Param("username")))
}

// --- classes

type myClassesJSON struct {
	Student  []classJSON `json:"student"`
	Teaching []classJSON `json:"teaching"`
}

func (s *Server) myClasses(c *gin.Context) {
	by, _ := principalOf(c)
	student, teaching, err := s.deps.Schools.MyClasses(c.Request.Context(), by)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := myClassesJSON{Student: []classJSON{}, Teaching: []classJSON{}}
	for _, v := range student {
		out.Student = append(out.Student, toClassViewJSON(v))
	}
	for _, v := range teaching {
		out.Teaching = append(out.Teaching, toClassViewJSON(v))
	}
	c.JSON(http.StatusOK, out)
}

type joinIn struct {
	Code string `json:"code"`
}

type joinedJSON struct {
	Class  classJSON  `json:"class"`
	Member memberJSON `json:"member"`
}

func (s *Server) joinClass(c *gin.Context) {
	var in joinIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	if err := requireFields("code", trimmed(in.Code)); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	cl, m, err := s.deps.Schools.Join(c.Request.Context(), by, in.Code)
	if err != nil {
		s.fail(c, err)
		return
	}
	v, err := s.deps.Schools.Class(c.Request.Context(), by, cl.ID)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, joinedJSON{Class: toClassViewJSON(v), Member: memberJSON{Username: m.Username, Since: m.Since.UTC(), Via: m.Via}})
}

func (s *Server) getClass(c *gin.Context) {
	by, _ := principalOf(c)
	v, err := s.deps.Schools.Class(c.Request.Context(), by, c.Param("id"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toClassViewJSON(v))
}

type classPatchIn struct {
	Name     *string `json:"name"`
	Capacity *int    `json:"capacity"`
	EndsOn   *string `json:"ends_on"`
}

// classAnswer answers a class's new version.
func (s *Server) classAnswer(c *gin.Context, cl schools.Class, err error) {
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusOK, toClassJSON(cl))
}

func (s *Server) updateClass(c *gin.Context) {
	var in classPatchIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	cl, err := s.deps.Schools.UpdateClass(c.Request.Context(), by, c.Param("id"), schools.ClassPatch{Name: in.Name, Capacity: in.Capacity, EndsOn: in.EndsOn})
	s.classAnswer(c, cl, err)
}

func (s *Server) archiveClass(c *gin.Context) {
	reason, err := optionalReason(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	cl, err := s.deps.Schools.ArchiveClass(c.Request.Context(), by, c.Param("id"), reason)
	s.classAnswer(c, cl, err)
}

func (s *Server) classHistory(c *gin.Context) {
	by, _ := principalOf(c)
	vs, err := s.deps.Schools.ClassHistory(c.Request.Context(), by, c.Param("id"))
	answerList(s, c, vs, err, func(x schools.Class) string { return strconv.FormatInt(x.Version, 10) }, toClassJSON)
}

type usernameIn struct {
	Username string `json:"username"`
}

func (s *Server) addCoTeacher(c *gin.Context) {
	var in usernameIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	if err := requireFields("username", in.Username); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	cl, err := s.deps.Schools.AddCoTeacher(c.Request.Context(), by, c.Param("id"), in.Username)
	s.classAnswer(c, cl, err)
}

func (s *Server) removeCoTeacher(c *gin.Context) {
	by, _ := principalOf(c)
	cl, err := s.deps.Schools.RemoveCoTeacher(c.Request.Context(), by, c.Param("id"), c.Param("username"))
	s.classAnswer(c, cl, err)
}

type codeIn struct {
	ExpiresAt *time.Time `json:"expires_at"`
}

func (s *Server) rotateCode(c *gin.Context) {
	var in codeIn
	if c.Request.ContentLength != 0 {
		if err := decodeJSON(c, &in); err != nil {
			s.fail(c, err)
			return
		}
	}
	var at time.Time
	if in.ExpiresAt != nil {
		at = *in.ExpiresAt
	}
	by, _ := principalOf(c)
	cl, err := s.deps.Schools.RotateCode(c.Request.Context(), by, c.Param("id"), at)
	s.classAnswer(c, cl, err)
}

func (s *Server) leaveClass(c *gin.Context) {
	by, _ := principalOf(c)
	if _, err := s.deps.Schools.Leave(c.Request.Context(), by, c.Param("id")); err != nil {
		s.fail(c, err)
		return
	}
	c.Status(http.StatusNoContent)
}

type usernamesIn struct {
	Usernames []string `json:"usernames"`
}

func (s *Server) addStudents(c *gin.Context) {
	var in usernamesIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	cl, err := s.deps.Schools.AddStudents(c.Request.Context(), by, c.Param("id"), in.Usernames)
	s.classAnswer(c, cl, err)
}

type namesIn struct {
	Names []string `json:"names"`
}

// newStudentJSON: an account an earlier try of the same keyed request
// made has no password here (made_earlier; that try showed it).
type newStudentJSON struct {
	Name        string `json:"name"`
	Username    string `json:"username"`
	Password    string `json:"password,omitempty"`
	MadeEarlier bool   `json:"made_earlier,omitempty"`
}

type managedJSON struct {
	Class    classJSON        `json:"class"`
	Accounts []newStudentJSON `json:"accounts"`
}

// addManaged makes managed accounts; the first passwords are in this
// answer only (JSON, or CSV for printing with Accept: text/csv). With an
// Idempotency-Key a retry makes no second set: it makes what no try made
// yet and answers the others as made_earlier, with no password
// (schools.Service.AddManaged).
func (s *Server) addManaged(c *gin.Context) {
	var in namesIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	lang, err := langOf(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	key, err := idempotencyKey(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	cl, made, err := s.deps.Schools.AddManaged(c.Request.Context(), by, c.Param("id"), in.Names, key)
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	if wantsCSV(c) {
		c.Header("Content-Type", CSVType+"; charset=utf-8")
		c.Header("Content-Disposition", `attachment; filename="accounts-`+cl.ID+`.csv"`)
		c.Status(http.StatusCreated)
		_ = schools.WriteNewStudentsCSV(c.Writer, made, lang)
		return
	}
	out := managedJSON{Class: toClassJSON(cl), Accounts: []newStudentJSON{}}
	for _, m := range made {
		out.Accounts = append(out.Accounts, newStudentJSON(m))
	}
	c.JSON(http.StatusCreated, out)
}

func (s *Server) removeStudent(c *gin.Context) {
	by, _ := principalOf(c)
	cl, err := s.deps.Schools.Remove(c.Request.Context(), by, c.Param("id"), c.Param("username"), c.Query("reason"))
	s.classAnswer(c, cl, err)
}

type moveIn struct {
	ToClass string `json:"to_class"`
}

type movedJSON struct {
	From classJSON `json:"from"`
	To   classJSON `json:"to"`
}

func (s *Server) moveStudent(c *gin.Context) {
	var in moveIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	if err := requireFields("to_class", in.ToClass); err != nil {
		s.fail(c, err)
		return
	}
	// A class id, bounded as one in the path is (checkParams): a longer
	// text was looked up and echoed whole in "no class ...".
	if len(in.ToClass) > MaxPathParam {
		s.fail(c, &schools.FieldError{Field: "to_class", Reason: fmt.Sprintf("is %d bytes, longer than a class id can be (%d)", len(in.ToClass), MaxPathParam)})
		return
	}
	by, _ := principalOf(c)
	ctx := c.Request.Context()
	from, to, err := s.deps.Schools.Move(ctx, by, c.Param("id"), c.Param("username"), in.ToClass)
	if err != nil {
		s.fail(c, err)
		return
	}
	// A teacher of the class left may move to any class of the school,
	// one they need not teach: that one is shown only as far as the
	// caller may see it (not its code nor its other students).
	sch, _, err := s.deps.Schools.School(ctx, by, to.SchoolID)
	if err != nil {
		s.fail(c, err)
		return
	}
	out := movedJSON{From: toClassJSON(from), To: toClassJSON(to)}
	if schools.ClassAccess(by, sch, to) < schools.AccessTeacher {
		out.To.InviteCode, out.To.CodeExpiresAt = "", nil
		moved := strings.ToLower(c.Param("username"))
		out.To.Students = slices.DeleteFunc(out.To.Students, func(m memberJSON) bool { return m.Username != moved })
	}
	c.JSON(http.StatusOK, out)
}

type passwordJSON struct {
	Username string `json:"username"`
	Password string `json:"password"`
}

func (s *Server) resetPassword(c *gin.Context) {
	by, _ := principalOf(c)
	pw, err := s.deps.Schools.ResetPassword(c.Request.Context(), by, c.Param("id"), c.Param("username"))
	if err != nil {
		s.fail(c, err)
		return
	}
	c.Header("Cache-Control", "no-store")
	c.JSON(http.StatusOK, passwordJSON{Username: strings.ToLower(c.Param("username")), Password: pw})
}

type placementIn struct {
	Rank   string `json:"rank"`
	Reason string `json:"reason"`
}

func (s *Server) placeStudent(c *gin.Context) {
	key, err := idempotencyKey(c)
	if err != nil {
		s.fail(c, err)
		return
	}
	var in placementIn
	if err := decodeJSON(c, &in); err != nil {
		s.fail(c, err)
		return
	}
	if err := requireFields("rank", trimmed(in.Rank), "reason", trimmed(in.Reason)); err != nil {
		s.fail(c, err)
		return
	}
	by, _ := principalOf(c)
	ch, err := s.deps.Schools.Place(c.Request.Context(), by, c.Param("id"), c.Param("username"), schools.Placement{Rank: in.Rank, Reason: in.Reason, Key: key})
	if err != nil {
		s.fail(c, err)
		return
	}
	c.JSON(http.StatusCreated, toChangedJSON(ch))
}

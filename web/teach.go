package web

import (
	"errors"
	"html/template"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/schools"
)

type teachData struct {
	Schools  []schools.School
	Classes  map[string][]schools.Class // by school id
	Teaching []schools.ClassView
}

func (s *Server) teach(c *ctx) error {
	ctx := c.r.Context()
	d := teachData{Classes: map[string][]schools.Class{}}
	var err error
	if d.Schools, err = s.d.Schools.Schools(ctx, c.user); err != nil {
		return err
	}
	for _, sch := range d.Schools {
		cs, err := s.d.Schools.Classes(ctx, c.user, sch.ID)
		if err != nil {
			return err
		}
		d.Classes[sch.ID] = cs
	}
	if _, d.Teaching, err = s.d.Schools.MyClasses(ctx, c.user); err != nil {
		return err
	}
	c.render(http.StatusOK, "teach", "teach.title", d)
	return nil
}

// classColumns are the class table's columns, in order, with the sort
// key of each.
var classColumns = []struct{ Key, Sort string }{
	{"col.player", schools.ColUsername}, {"col.name", schools.ColName}, {"col.rank", schools.ColScore},
	{"col.school_rank", schools.ColScore}, {"col.certified", schools.ColCertified}, {"col.glicko", schools.ColRating},
	{"col.games", schools.ColGames}, {"col.week", schools.ColGamesWeek}, {"col.month", schools.ColGamesMonth},
	{"col.change", schools.ColChange}, {"col.last_game", schools.ColLastGame}, {"col.exam", schools.ColExam},
}

type column struct {
	Key, Sort, Link string
	Active, Desc    bool
}

type classData struct {
	View     schools.ClassView
	Table    schools.Table
	Columns  []column
	Sort     string
	CSV      string
	Zone     *time.Location
	NewStuds []schools.NewStudent
	Notice   string
	// A refused managed-accounts form: the error's catalogue key, its
	// detail, and the names as typed, given back in the form.
	Error, Detail, Names string
	// FormKey is the managed-accounts form's Idempotency-Key, new at
	// each showing: the form sent twice (a double click, a reload of
	// the answer) makes one set of accounts.
	FormKey string
}

// tableQueryOf reads sort (a column, "-" first for descending) and the
// period of a class table from the address.
func tableQueryOf(r *http.Request) schools.TableQuery {
	qv := r.URL.Query()
	q := schools.TableQuery{From: qv.Get("from"), To: qv.Get("to"), Since: qv.Get("since"), Sort: qv.Get("sort")}
	if rest, ok := strings.CutPrefix(q.Sort, "-"); ok {
		q.Sort, q.Desc = rest, true
	}
	return q
}

func (s *Server) classData(c *ctx) (classData, error) {
	ctx := c.r.Context()
	id := c.r.PathValue("id")
	q := tableQueryOf(c.r)
	t, err := s.d.Schools.Table(ctx, c.user, id, q)
	if err != nil {
		return classData{}, err
	}
	// The class and its school as the school's list has them: two reads,
	// not the class view's classmates (the table has every student).
	sch, _, err := s.d.Schools.School(ctx, c.user, t.SchoolID)
	if err != nil {
		return classData{}, err
	}
	cs, err := s.d.Schools.Classes(ctx, c.user, t.SchoolID)
	if err != nil {
		return classData{}, err
	}
	d := classData{View: schools.ClassView{School: sch}, Table: t, Sort: c.r.URL.Query().Get("sort"), Zone: time.UTC, FormKey: randomToken()}
	for _, cl := range cs {
		if cl.ID == t.ClassID {
			d.View.Class = cl
		}
	}
	if loc, err := time.LoadLocation(t.TimeZone); err == nil {
		d.Zone, c.loc = loc, loc
	}
	base := "/classes/" + url.PathEscape(id)
	// The sort links and the CSV keep the address's period (from, to,
	// since): sorting, or downloading, the table shown, not the default
	// period's.
	link := func(path, sort string) string {
		v := url.Values{}
		for _, k := range []string{"from", "to", "since"} {
			if x := c.r.URL.Query().Get(k); x != "" {
				v.Set(k, x)
			}
		}
		if sort != "" {
			v.Set("sort", sort)
		}
		if len(v) == 0 {
			return path
		}
		return path + "?" + v.Encode()
	}
	for _, col := range classColumns {
		cl := column{Key: col.Key, Sort: col.Sort, Active: t.Sort == col.Sort && col.Key != "col.school_rank"}
		next := col.Sort
		if cl.Active && !t.Desc {
			next = "-" + col.Sort
		}
		cl.Desc = cl.Active && t.Desc
		cl.Link = link(base, next)
		d.Columns = append(d.Columns, cl)
	}
	d.CSV = link(base+"/table.csv", d.Sort)
	return d, nil
}

func (s *Server) classPage(c *ctx) error {
	d, err := s.classData(c)
	if err != nil {
		return err
	}
	c.render(http.StatusOK, "class", "class.title", d)
	return nil
}

func (s *Server) classCSV(c *ctx) error {
	t, err := s.d.Schools.Table(c.r.Context(), c.user, c.r.PathValue("id"), tableQueryOf(c.r))
	if err != nil {
		return err
	}
	c.w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	c.w.Header().Set("Content-Disposition", `attachment; filename="class-`+safeFile(t.ClassID)+`.csv"`)
	return schools.WriteTableCSV(c.w, t, c.lang)
}

func (s *Server) classRotateCode(c *ctx) error {
	id := c.r.PathValue("id")
	if _, err := s.d.Schools.RotateCode(c.r.Context(), c.user, id, time.Time{}); err != nil {
		return err
	}
	return c.redirect("/classes/" + url.PathEscape(id))
}

// formKey is what the API takes as an Idempotency-Key (randomToken's
// alphabet fits it).
var formKey = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

func (s *Server) classAddManaged(c *ctx) error {
	id := c.r.PathValue("id")
	var names []string
	for _, l := range strings.Split(c.r.PostFormValue("names"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			names = append(names, l)
		}
	}
	// A form shown before keys sends none: as the API without one.
	key := c.r.PostFormValue("form_key")
	if key != "" && !formKey.MatchString(key) {
		return &pageError{status: http.StatusUnprocessableEntity, key: "err.invalid_field", field: "form_key"}
	}
	_, added, err := s.d.Schools.AddManaged(c.r.Context(), c.user, id, names, key)
	if err != nil {
		// A refused list (a name too long, two the same) comes back in
		// the class page's form with the reason, so the teacher mends
		// one line instead of typing the class again; a class not
		// theirs, or a store's trouble, is the error page.
		status, errKey, detail, _ := c.classified(err)
		if status >= 500 || status == http.StatusForbidden || status == http.StatusNotFound {
			return err
		}
		d, derr := s.classData(c)
		if derr != nil {
			return derr
		}
		d.Names, d.Error, d.Detail = c.r.PostFormValue("names"), errKey, detail
		if key != "" && errors.Is(err, schools.ErrClassFull) {
			// Accounts may be made already (the class filled while they
			// were): sent again once there is room, the same request
			// adds them instead of making a second set.
			d.FormKey = key
		}
		c.render(status, "class", "class.title", d)
		return nil
	}
	d, err := s.classData(c)
	if err != nil {
		return err
	}
	d.NewStuds = added
	c.render(http.StatusOK, "class", "class.title", d)
	return nil
}

type studentData struct {
	Class     schools.ClassView
	Username  string
	Series    schools.Series
	Graph     graph
	Zone      *time.Location
	Scale     ranks.Scale
	Schedules []exams.Schedule
	Nominated string
	// Followed: added by username and not joined with the code yet, so
	// the teacher may not register them (schools.Member.Consented).
	Followed bool
	// Resettable: a managed child the class's teachers may give a new
	// password (schools.Service.ResetPassword); NewPassword: the one
	// just given, shown once.
	Resettable  bool
	NewPassword string
}

func (s *Server) studentPage(c *ctx) error { return s.renderStudent(c, "") }

// studentResetPassword gives a managed student a new password and shows
// it once on the student's page (a lost first password; the API's
// POST …/students/{username}/password).
func (s *Server) studentResetPassword(c *ctx) error {
	pw, err := s.d.Schools.ResetPassword(c.r.Context(), c.user, c.r.PathValue("id"), c.r.PathValue("username"))
	if err != nil {
		return err
	}
	c.w.Header().Set("Cache-Control", "no-store")
	return s.renderStudent(c, pw)
}

// renderStudent shows a student's page, with a password just given.
func (s *Server) renderStudent(c *ctx, newPassword string) error {
	ctx := c.r.Context()
	id, name := c.r.PathValue("id"), c.r.PathValue("username")
	qv := c.r.URL.Query()
	p, err := s.d.Schools.StudentProgress(ctx, c.user, id, name, schools.ProgressQuery{From: qv.Get("from"), To: qv.Get("to"), Step: qv.Get("step")})
	if err != nil {
		return err
	}
	v, err := s.d.Schools.Class(ctx, c.user, id)
	if err != nil {
		return err
	}
	d := studentData{Class: v, Username: name, Zone: time.UTC, Scale: p.Scale, NewPassword: newPassword}
	if m, ok := v.Member(strings.ToLower(name)); ok {
		d.Followed = !m.Consented()
		d.Resettable = m.Managed && m.Consented()
	}
	if d.Schedules, err = s.d.Exams.Schedules(ctx); err != nil {
		return err
	}
	// The nomination's notice names the exam as the form does (1段
	// 升段赛 (weekly-1d)), not by its id alone; an id the address
	// carries that is no schedule's shows no notice, not the link's text.
	for _, sch := range d.Schedules {
		if id := qv.Get("nominated"); id != "" && sch.ID == id {
			d.Nominated = examName(c.lang, sch)
		}
	}
	if loc, err := time.LoadLocation(p.TimeZone); err == nil {
		d.Zone, c.loc = loc, loc
	}
	if len(p.Series) > 0 {
		d.Series = p.Series[0]
		var pts []graphPoint
		for _, pt := range d.Series.Points {
			at, _ := time.ParseInLocation(schools.DateLayout, pt.Date, d.Zone)
			pts = append(pts, graphPoint{at: at, score: pt.Score, day: pt.Date})
		}
		for _, ch := range d.Series.Changes {
			if ch.Cause == "exam" || ch.Cause == "placement" || ch.Cause == "revocation" {
				pts = append(pts, graphPoint{at: ch.At, score: ch.ScoreAfter, cause: ch.Cause, certified: ch.CertifiedAfter})
			}
		}
		d.Graph = drawGraph(c.lang, d.Zone, sortPoints(pts))
	}
	c.render(http.StatusOK, "student", "student.title", d)
	return nil
}

type progressData struct {
	View  schools.ClassView
	Graph template.HTML
	Lines []progressLine
	Range schools.Range
	Step  string
}

type progressLine struct {
	Username, Name, Colour string
	Start, End             int
}

// classProgress draws the class's progress: one line per student.
func (s *Server) classProgress(c *ctx) error {
	ctx := c.r.Context()
	id := c.r.PathValue("id")
	qv := c.r.URL.Query()
	p, err := s.d.Schools.Progress(ctx, c.user, id, schools.ProgressQuery{From: qv.Get("from"), To: qv.Get("to"), Step: qv.Get("step")})
	if err != nil {
		return err
	}
	v, err := s.d.Schools.Class(ctx, c.user, id)
	if err != nil {
		return err
	}
	loc, err := time.LoadLocation(p.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	d := progressData{View: v, Range: p.Range, Step: p.Step}
	var all [][]graphPoint
	var names []string
	for i, ser := range p.Series {
		var pts []graphPoint
		for _, pt := range ser.Points {
			at, _ := time.ParseInLocation(schools.DateLayout, pt.Date, loc)
			pts = append(pts, graphPoint{at: at, score: pt.Score})
		}
		all, names = append(all, pts), append(names, ser.Username)
		line := progressLine{Username: ser.Username, Name: ser.Name, Colour: palette[i%len(palette)], Start: ser.Start, End: ser.Start}
		if n := len(ser.Points); n > 0 {
			line.End = ser.Points[n-1].Score
		}
		d.Lines = append(d.Lines, line)
	}
	d.Graph = classLines(c.lang, all, names)
	c.render(http.StatusOK, "progress", "progress.title", d)
	return nil
}

// studentNominate registers a student of the teacher's class for an
// exam, the teacher recorded as the nominator (a teacher nominates only
// their own students, as the API).
func (s *Server) studentNominate(c *ctx) error {
	ctx := c.r.Context()
	id, name := c.r.PathValue("id"), c.r.PathValue("username")
	ok, err := s.d.Schools.Teaches(ctx, c.user, name)
	if err != nil {
		return err
	}
	if !ok {
		return errForbidden
	}
	schedule := c.r.PostFormValue("schedule")
	if _, _, err := s.d.Exams.Register(ctx, exams.RegisterRequest{ScheduleID: schedule, Player: name, NominatedBy: c.user.Username}); err != nil {
		return err
	}
	return c.redirect("/classes/" + url.PathEscape(id) + "/students/" + url.PathEscape(name) + "?nominated=" + url.QueryEscape(schedule))
}

package web

import (
	"encoding/base64"
	"encoding/csv"
	"errors"
	"html/template"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/intake"
	"github.com/weiqi-platform/rank/internal/csvsafe"
	"github.com/weiqi-platform/rank/jobs"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

type adminData struct {
	Jobs    []jobs.JobInfo
	RunID   string
	Notice  string
	Detail  string
	Schools []schools.School
	Aborts  []intake.AbortCount

	// The account list: a page in username order, filtered by role
	// (?acc_role=) and username prefix (?acc_prefix=), from ?acc_after=.
	Accounts      []players.Account
	AccountRole   string
	AccountPrefix string
	AccountsNext  template.URL // the next page ("" on the last), made of url.Values.Encode
	Roles         []players.Role

	// A refused form of the page ("account" or "school"): the refusal
	// above it and its fields as typed (never the password).
	Form       string
	FormValues map[string]string
	FormError  string
	FormDetail string
}

// accountsPage is the size of a page of the admin's account list.
const accountsPage = 50

// abortSpan is how far back the admin page counts players' aborts.
const abortSpan = 30 * 24 * time.Hour

// adminData reads what the admin page shows.
func (s *Server) adminData(c *ctx) (adminData, error) {
	d := adminData{Jobs: s.d.Jobs.Jobs(), RunID: randomToken()[:16]}
	var err error
	if d.Schools, err = s.d.Schools.Schools(c.r.Context(), c.user); err != nil {
		return d, err
	}
	if d.Aborts, err = s.d.Games.Aborts(c.r.Context(), s.now().Add(-abortSpan)); err != nil {
		return d, err
	}
	return d, s.adminAccounts(c, &d)
}

// adminRefused shows the admin page with its form (form: "account" or
// "school") refused: the reason above the form and the fields as typed,
// so the admin mends one (a time zone, a head teacher's name) instead of
// typing the form again; what is no refusal is the error page.
func (s *Server) adminRefused(c *ctx, form string, fields []string, err error) error {
	status, key, detail, ok := c.refusal(err)
	if !ok {
		return err
	}
	d, derr := s.adminData(c)
	if derr != nil {
		return derr
	}
	d.Form, d.FormError, d.FormDetail, d.FormValues = form, key, detail, map[string]string{}
	for _, f := range fields {
		d.FormValues[f] = c.r.PostFormValue(f)
	}
	c.render(status, "admin", "admin.title", d)
	return nil
}

func (s *Server) adminHome(c *ctx) error {
	d, err := s.adminData(c)
	if err != nil {
		return err
	}
	switch q := c.r.URL.Query(); {
	case q.Get("ran") != "":
		d.Notice, d.Detail = "admin.job_ran", q.Get("ran")+": "+knownTerm(c.lang, "job.", q.Get("status"))
	case q.Get("created") != "":
		d.Notice, d.Detail = "admin.created", q.Get("created")
	}
	c.render(http.StatusOK, "admin", "admin.title", d)
	return nil
}

// adminAccounts reads a page of the account list into d.
func (s *Server) adminAccounts(c *ctx, d *adminData) error {
	q := c.r.URL.Query()
	d.AccountRole, d.AccountPrefix, d.Roles = q.Get("acc_role"), q.Get("acc_prefix"), players.Roles
	list, err := s.d.Players.Accounts(c.r.Context(), c.user, players.AccountQuery{After: q.Get("acc_after"),
		Role: players.Role(d.AccountRole), Prefix: d.AccountPrefix, Limit: accountsPage + 1})
	var fe *players.FieldError
	if errors.As(err, &fe) {
		// A filter in the address, as the API's query parameters: 400.
		return &pageError{status: http.StatusBadRequest, key: "err.invalid_field", field: "acc_" + fe.Field}
	}
	if err != nil {
		return err
	}
	if len(list) > accountsPage {
		list = list[:accountsPage]
		next := url.Values{"acc_after": {list[accountsPage-1].Username}}
		if d.AccountRole != "" {
			next.Set("acc_role", d.AccountRole)
		}
		if d.AccountPrefix != "" {
			next.Set("acc_prefix", d.AccountPrefix)
		}
		d.AccountsNext = template.URL("/admin?" + next.Encode() + "#accounts-title")
	}
	d.Accounts = list
	return nil
}

func (s *Server) adminRunJob(c *ctx) error {
	name := c.r.PathValue("name")
	rep, err := s.d.Jobs.RunNow(c.r.Context(), name, c.r.PostFormValue("run_id"))
	if errors.Is(err, jobs.ErrUnknownJob) {
		return errNotFound
	}
	if errors.Is(err, jobs.ErrBadJob) {
		return &pageError{status: http.StatusUnprocessableEntity, key: "err.invalid_field", field: "run_id"}
	}
	if err != nil {
		return err
	}
	status := "done"
	switch {
	case rep.Claim == jobs.Done:
		status = "already_done"
	case rep.Claim != jobs.Taken:
		status = "running_elsewhere"
	case rep.Err != nil:
		status = "failed"
	}
	return c.redirect("/admin?ran=" + url.QueryEscape(name) + "&status=" + status)
}

func (s *Server) adminCreateAccount(c *ctx) error {
	f := c.r.PostForm
	a, err := s.d.Players.CreateAccount(c.r.Context(), c.user, f.Get("username"), f.Get("password"), players.Role(f.Get("role")))
	if err != nil {
		return s.adminRefused(c, "account", []string{"username", "role"}, err)
	}
	return c.redirect("/admin?created=" + url.QueryEscape(a.Username))
}

func (s *Server) adminCreateSchool(c *ctx) error {
	f := c.r.PostForm
	sch, err := s.d.Schools.CreateSchool(c.r.Context(), c.user, schools.SchoolDraft{Name: f.Get("name"), TimeZone: f.Get("time_zone"),
		HeadTeachers: []string{strings.TrimSpace(f.Get("head"))}})
	if err != nil {
		return s.adminRefused(c, "school", []string{"name", "time_zone", "head"}, err)
	}
	return c.redirect("/admin?created=" + url.QueryEscape(sch.Name))
}

// auditPage is the size of an audit page.
const auditPage = 100

type auditData struct {
	Player, Cause, From, To string
	Causes                  []string
	Entries                 []rating.LedgerEntry
	Next                    string
	CSV                     string
}

var causes = []string{rating.CauseGame, rating.CauseExam, rating.CausePlacement, rating.CauseAdjustment, rating.CauseAnnulment, rating.CauseRevocation}

// auditQuery reads the audit trail's filters: player, cause, from and to
// days (YYYY-MM-DD, UTC; to included).
func auditQuery(r *http.Request) (rating.AuditQuery, auditData, error) {
	qv := r.URL.Query()
	d := auditData{Player: qv.Get("player"), Cause: qv.Get("cause"), From: qv.Get("from"), To: qv.Get("to"), Causes: causes}
	q := rating.AuditQuery{Player: d.Player, Cause: d.Cause}
	if d.Cause != "" && !slices.Contains(causes, d.Cause) {
		return q, d, &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "cause"}
	}
	if d.From != "" {
		t, err := time.Parse("2006-01-02", d.From)
		if err != nil {
			return q, d, &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "from"}
		}
		q.From = t
	}
	if d.To != "" {
		t, err := time.Parse("2006-01-02", d.To)
		if err != nil {
			return q, d, &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "to"}
		}
		q.To = t.Add(24 * time.Hour)
	}
	if a := qv.Get("after"); a != "" {
		var cur rating.AuditCursor
		if err := decodeCursor(a, &cur); err != nil {
			return q, d, &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "after"}
		}
		q.After = &cur
	}
	v := url.Values{}
	for k, x := range map[string]string{"player": d.Player, "cause": d.Cause, "from": d.From, "to": d.To} {
		if x != "" {
			v.Set(k, x)
		}
	}
	d.CSV = "/admin/audit.csv"
	if len(v) > 0 {
		d.CSV += "?" + v.Encode()
	}
	return q, d, nil
}

func (s *Server) adminAudit(c *ctx) error {
	q, d, err := auditQuery(c.r)
	if err != nil {
		return err
	}
	q.Limit = auditPage + 1
	es, err := s.d.Ratings.Audit(c.r.Context(), q)
	if err != nil {
		return err
	}
	if len(es) > auditPage {
		es = es[:auditPage]
		last := es[len(es)-1]
		d.Next = encodeCursor(rating.AuditCursor{At: last.At, Username: last.Username, Seq: last.Seq})
	}
	d.Entries = es
	c.render(http.StatusOK, "audit", "audit.title", d)
	return nil
}

// auditCSVMax bounds the rows of one CSV download.
const auditCSVMax = 10_000

// auditCSVColumns are the audit CSV's columns (catalogue keys
// "auditcsv."+column).
var auditCSVColumns = []string{"at", "username", "seq", "cause", "cause_id", "actor", "opponent", "score_before", "score_after", "rank_before", "rank_after", "delta", "certified_before", "certified_after", "reason"}

func (s *Server) adminAuditCSV(c *ctx) error {
	q, _, err := auditQuery(c.r)
	if err != nil {
		return err
	}
	q.Limit = auditCSVMax
	es, err := s.d.Ratings.Audit(c.r.Context(), q)
	if err != nil {
		return err
	}
	c.w.Header().Set("Content-Type", "text/csv; charset=utf-8")
	c.w.Header().Set("Content-Disposition", `attachment; filename="audit.csv"`)
	// In the page's language, as the page that links it: the header, the
	// causes and the ranks (5级 / 3段 in Chinese); the byte order mark
	// lets spreadsheet programs read the UTF-8.
	_, _ = io.WriteString(c.w, schools.BOM)
	w := csv.NewWriter(c.w)
	header := make([]string, len(auditCSVColumns))
	for i, col := range auditCSVColumns {
		header[i] = tr(c.lang, "auditcsv."+col)
	}
	_ = w.Write(header)
	rank := func(r string) string {
		if r == "" {
			return ""
		}
		return rankText(c.lang, r)
	}
	for _, e := range es {
		_ = w.Write([]string{e.At.UTC().Format(time.RFC3339), csvsafe.Cell(e.Username), strconv.FormatInt(e.Seq, 10), termText(c.lang, "cause.", e.Cause), csvsafe.Cell(e.CauseID), csvsafe.Cell(e.Actor), csvsafe.Cell(e.Opponent),
			strconv.Itoa(e.ScoreBefore), strconv.Itoa(e.ScoreAfter), rank(e.RankBefore), rank(e.RankAfter), strconv.Itoa(e.Delta), rank(e.CertifiedBefore), rank(e.CertifiedAfter), csvsafe.Cell(e.Reason)})
	}
	w.Flush()
	return w.Error()
}

type promotionRow struct {
	exams.Result
	Token string // the id as the form carries it
}

type promotionsData struct {
	State  string
	States []string
	Rows   []promotionRow
	Notice string
	Detail string
}

var promotionStates = []string{exams.ResultAwaiting, exams.ResultApproved, exams.ResultRejected, exams.ResultCertified}

func (s *Server) adminPromotions(c *ctx) error {
	d := promotionsData{State: c.r.URL.Query().Get("state"), States: promotionStates}
	if d.State == "" {
		d.State = exams.ResultAwaiting
	}
	if !slices.Contains(promotionStates, d.State) {
		return &pageError{status: http.StatusBadRequest, key: "err.invalid_parameter", field: "state"}
	}
	all, err := s.d.Exams.Promotions(c.r.Context(), d.State)
	if err != nil {
		return err
	}
	for _, r := range all {
		d.Rows = append(d.Rows, promotionRow{Result: r, Token: base64.RawURLEncoding.EncodeToString([]byte(r.ID))})
	}
	if q := c.r.URL.Query(); q.Get("done") != "" {
		d.Notice, d.Detail = "admin.decided", q.Get("done")+": "+knownTerm(c.lang, "exam.result.", q.Get("state"))
	}
	c.render(http.StatusOK, "promotions", "promotions.title", d)
	return nil
}

func (s *Server) adminDecide(c *ctx) error {
	b, err := base64.RawURLEncoding.DecodeString(c.r.PostFormValue("id"))
	if err != nil || len(b) == 0 {
		return errNotFound
	}
	reason := strings.TrimSpace(c.r.PostFormValue("reason"))
	var r exams.Result
	switch c.r.PathValue("verb") {
	case "approve":
		r, err = s.d.Exams.Approve(c.r.Context(), string(b), c.user.Username, reason)
	case "reject":
		r, err = s.d.Exams.Reject(c.r.Context(), string(b), c.user.Username, reason)
	default:
		return errNotFound
	}
	if err != nil {
		return err
	}
	return c.redirect("/admin/promotions?done=" + url.QueryEscape(r.Player) + "&state=" + url.QueryEscape(r.State))
}

func (s *Server) adminVerification(c *ctx) error {
	reps, err := s.d.Ratings.Reports(c.r.Context(), 20)
	if err != nil {
		return err
	}
	c.render(http.StatusOK, "verification", "verification.title", reps)
	return nil
}

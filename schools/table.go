package schools

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// TableQuery asks for a class table. Days are YYYY-MM-DD in the school's
// time zone; bad ones are a *FieldError naming from, to or since.
type TableQuery struct {
	// From and To are the chosen period for its games and wins; "" is
	// the first of this month and today.
	From, To string
	// Since is the day the score and rank change is counted from; "":
	// the period's first day.
	Since string
	// Sort is one of Columns ("" is ColUsername); Desc turns it round.
	// Ties go by username.
	Sort string
	Desc bool
	// After continues a page: the cursor of the previous page's last row.
	After *Cursor
	// Limit bounds the rows; 0 gives every row (the CSV).
	Limit int
}

// The columns a table sorts by.
const (
	ColUsername    = "username"
	ColName        = "name"
	ColJoined      = "joined"
	ColScore       = "score" // and the ladder rank, which follows it
	ColCertified   = "certified"
	ColRating      = "rating"
	ColRD          = "rd"
	ColGames       = "games"
	ColGamesWeek   = "games_week"
	ColWinsWeek    = "wins_week"
	ColGamesMonth  = "games_month"
	ColWinsMonth   = "wins_month"
	ColGamesPeriod = "games_period"
	ColWinsPeriod  = "wins_period"
	ColChange      = "change"
	ColLastGame    = "last_game"
	ColExam        = "exam"
)

// Columns lists every column a table sorts by.
var Columns = []string{ColUsername, ColName, ColJoined, ColScore, ColCertified, ColRating, ColRD, ColGames,
	ColGamesWeek, ColWinsWeek, ColGamesMonth, ColWinsMonth, ColGamesPeriod, ColWinsPeriod, ColChange, ColLastGame, ColExam}

// Cursor is where the next page of a table starts: after the row with
// this sort key and username, in this sort.
type Cursor struct {
	Sort string  `json:"c"`
	Desc bool    `json:"d,omitempty"`
	Num  float64 `json:"n,omitempty"`
	Str  string  `json:"s,omitempty"`
	User string  `json:"u"`
}

// Count is games and their results in a span.
type Count struct {
	Games  int `json:"games"`
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Draws  int `json:"draws"`
}

// LastGame is a student's last rated game.
type LastGame struct {
	At       time.Time
	GameID   string
	Opponent string
	Result   string // rating.ResultWin, ResultLoss, ResultDraw
	Delta    int
}

// ExamRegistration is a student's latest exam registration.
type ExamRegistration struct {
	ScheduleID, SessionID string
	SessionAt             time.Time
	Role, NominatedBy     string
}

// ExamResult is a student's latest exam grade.
type ExamResult struct {
	ScheduleID, SessionID string
	Target                ranks.Rank
	State                 string // exams.Result… states
	Wins, Games           int
	GradedAt              time.Time
}

// Row is one student of a table. Every figure is read from the ledger
// and the student's state; Shown ranks are the school's scale, beside
// the ladder's.
type Row struct {
	Username string
	Name     string
	Managed  bool
	Joined   time.Time
	Classes  []string // the school table: the student's classes there
	// The ladder and Glicko-2 now.
	Score          int
	Rank, Shown    ranks.Rank
	Certified      ranks.Rank // zero: none
	ShownCertified ranks.Rank
	// Unsettled: the rank is shown with "?", by the profile's rule
	// (rating.PlayerState.Settled: placing, or the deviation too wide).
	Unsettled  bool
	Rating, RD float64
	Games      int // rated games ever
	// Games this week, this month and in the period.
	Week, Month, Period Count
	// Since the Since day: the score and rank then, and the change.
	ScoreThen int
	RankThen  ranks.Rank
	Change    int
	RankSteps int // ranks moved: +2 is two ranks up
	LastGame  *LastGame
	// Exams: the latest registration and the latest grade.
	Registration *ExamRegistration
	Result       *ExamResult
}

// ShownRank is the rank in the school's scale as the API shows it, with
// "?" while unsettled, as the profile shows the ladder rank.
func (r Row) ShownRank() string { return r.Shown.String() + unsettledMark(r.Unsettled) }

func unsettledMark(unsettled bool) string {
	if unsettled {
		return "?"
	}
	return ""
}

// Table is a page of a class's (or a school's) table.
type Table struct {
	ClassID, SchoolID string
	Scale             ranks.Scale
	TimeZone          string
	Week, Month       Range
	Period            Range
	Since             time.Time
	Sort              string
	Desc              bool
	Rows              []Row
	Total             int     // rows in the whole table
	Next              *Cursor // nil on the last page
}

// Table is the class table: a teacher of the class may read it.
func (s *Service) Table(ctx context.Context, by players.Principal, classID string, q TableQuery) (Table, error) {
	c, sch, _, err := s.classFor(ctx, by, classID, AccessTeacher)
	if err != nil {
		return Table{}, err
	}
	t, err := s.table(ctx, sch, c.Students, nil, q)
	t.ClassID = c.ID
	return t, err
}

// SchoolTable is the table of every student of the school's classes
// (once each, with their classes): a head teacher or an admin may read
// it.
func (s *Service) SchoolTable(ctx context.Context, by players.Principal, schoolID string, q TableQuery) (Table, error) {
	sch, a, err := s.School(ctx, by, schoolID)
	if err != nil {
		return Table{}, err
	}
	if err := need(a, AccessHead, "school"); err != nil {
		return Table{}, err
	}
	cs, err := s.store.Classes(ctx, ClassQuery{School: schoolID})
	if err != nil {
		return Table{}, err
	}
	var ms []Member
	classes := map[string][]string{}
	for _, c := range cs {
		for _, m := range c.Students {
			if _, seen := classes[m.Username]; !seen {
				ms = append(ms, m)
			}
			classes[m.Username] = append(classes[m.Username], c.ID)
		}
	}
	return s.table(ctx, sch, ms, classes, q)
}

// period reads a range of days: "" is the first of this month for from,
// today for to (in loc, by the service's clock).
func (s *Service) period(loc *time.Location, from, to string) (Range, error) {
	now := s.clock.Now()
	if from == "" {
		from = monthStart(now, loc).Format(DateLayout)
	}
	if to == "" {
		to = rating.Midnight(now, loc).Format(DateLayout)
	}
	return NewRange("from", from, "to", to, loc)
}

func (s *Service) table(ctx context.Context, sch School, ms []Member, classes map[string][]string, q TableQuery) (Table, error) {
	loc := location(sch)
	now := s.clock.Now()
	if q.Sort == "" {
		q.Sort = ColUsername
	}
	if !slices.Contains(Columns, q.Sort) {
		return Table{}, &FieldError{"sort", fmt.Sprintf("%q is not one of %s", q.Sort, strings.Join(Columns, ", "))}
	}
	if q.After != nil && (q.After.Sort != q.Sort || q.After.Desc != q.Desc) {
		return Table{}, &FieldError{"cursor", "was made for another sort"}
	}
	period, err := s.period(loc, q.From, q.To)
	if err != nil {
		return Table{}, err
	}
	since := period.From
	if q.Since != "" {
		if since, err = ParseDate("since", q.Since, loc); err != nil {
			return Table{}, err
		}
		// As far back as a range may span, and not after today.
		today := rating.Midnight(now, loc)
		if since.After(today) || since.Before(today.AddDate(-MaxSpanYears, 0, 0)) {
			return Table{}, &FieldError{"since", fmt.Sprintf("must be a day within the last %d years, got %s", MaxSpanYears, q.Since)}
		}
	}
	t := Table{SchoolID: sch.ID, Scale: sch.Scale, TimeZone: sch.TimeZone, Sort: q.Sort, Desc: q.Desc,
		Week:   Range{From: rating.WeekStart(now, loc), To: rating.Midnight(now, loc)},
		Month:  Range{From: monthStart(now, loc), To: rating.Midnight(now, loc)},
		Period: period, Since: since}
	from := minTime(t.Week.From, t.Month.From, t.Period.From, t.Since)
	names := make([]string, len(ms))
	for i, m := range ms {
		names[i] = m.Username
	}
	hs, err := s.ratings.Runs(ctx, names, from, true)
	if err != nil {
		return Table{}, err
	}
	regs, results, err := s.examsFor(ctx, names)
	if err != nil {
		return Table{}, err
	}
	rows := make([]Row, len(ms))
	for i, m := range ms {
		rows[i] = makeRow(m, hs[i], t, sch.Scale)
		rows[i].Classes = classes[m.Username]
	}
	attachExams(rows, regs, results)
	key := func(r Row) sortKey { return keyOf(r, q.Sort) }
	slices.SortFunc(rows, func(a, b Row) int {
		c := key(a).compare(key(b))
		if q.Desc {
			c = -c
		}
		return cmp.Or(c, strings.Compare(a.Username, b.Username))
	})
	t.Total = len(rows)
	if q.After != nil {
		after := sortKey{q.After.Num, q.After.Str}
		i, _ := slices.BinarySearchFunc(rows, struct{}{}, func(r Row, _ struct{}) int {
			c := key(r).compare(after)
			if q.Desc {
				c = -c
			}
			if c == 0 {
				c = strings.Compare(r.Username, q.After.User)
			}
			if c <= 0 {
				return -1
			}
			return 1
		})
		rows = rows[i:]
	}
	if q.Limit > 0 && len(rows) > q.Limit {
		rows = rows[:q.Limit]
		last := rows[len(rows)-1]
		k := key(last)
		t.Next = &Cursor{Sort: q.Sort, Desc: q.Desc, Num: k.num, Str: k.str, User: last.Username}
	}
	t.Rows = rows
	return t, nil
}

func minTime(ts ...time.Time) time.Time {
	m := ts[0]
	for _, t := range ts[1:] {
		if t.Before(m) {
			m = t
		}
	}
	return m
}

// resultOf reads a game entry's result; entries written before
// results were recorded fall back on the delta's sign (a zero delta
// counts as a draw there).
func resultOf(e rating.LedgerEntry) string {
	if e.Result != "" {
		return e.Result
	}
	switch {
	case e.Delta > 0:
		return rating.ResultWin
	case e.Delta < 0:
		return rating.ResultLoss
	}
	return rating.ResultDraw
}

func (c *Count) add(result string) {
	c.Games++
	switch result {
	case rating.ResultWin:
		c.Wins++
	case rating.ResultLoss:
		c.Losses++
	default:
		c.Draws++
	}
}

// annulled lists the games annulled in the entries.
func annulled(es []rating.LedgerEntry) map[string]bool {
	out := map[string]bool{}
	for _, e := range es {
		if e.Cause == rating.CauseAnnulment {
			out[e.CauseID] = true
		}
	}
	return out
}

func makeRow(m Member, h rating.Run, t Table, scale ranks.Scale) Row {
	st := h.State
	r := Row{Username: m.Username, Name: m.Name, Managed: m.Managed, Joined: m.Since,
		Score: st.Score, Rank: st.Rank(), Certified: st.Certified, Unsettled: !st.Settled(), Rating: st.Glicko.Rating, RD: st.Glicko.RD, Games: st.Games}
	r.Shown, r.ShownCertified = scale.Show(r.Rank), scale.Show(r.Certified)
	gone := annulled(h.Entries)
	for _, e := range h.Entries {
		if e.Cause != rating.CauseGame {
			continue
		}
		res := resultOf(e)
		r.LastGame = &LastGame{At: e.At, GameID: e.CauseID, Opponent: e.Opponent, Result: res, Delta: e.Delta}
		if gone[e.CauseID] {
			continue
		}
		for _, span := range []struct {
			rg Range
			c  *Count
		}{{t.Week, &r.Week}, {t.Month, &r.Month}, {t.Period, &r.Period}} {
			if span.rg.Contains(e.At) {
				span.c.add(res)
			}
		}
	}
	r.ScoreThen = h.ScoreAt(t.Since)
	r.RankThen = ranks.FromScore(r.ScoreThen)
	r.Change = r.Score - r.ScoreThen
	r.RankSteps = ladderIndex(r.Rank) - ladderIndex(r.RankThen)
	return r
}

// ladderIndex is the position of a ladder rank, lowest 0.
func ladderIndex(r ranks.Rank) int { return slices.Index(ranks.LadderRanks(), r) }

// attachExams gives each row its latest registration and grade.
func attachExams(rows []Row, regs []exams.Registration, results []exams.Result) {
	at := map[string]int{}
	for i, r := range rows {
		at[r.Username] = i
	}
	for _, g := range regs {
		i, ok := at[g.Player]
		if !ok {
			continue
		}
		if cur := rows[i].Registration; cur == nil || g.SessionAt.After(cur.SessionAt) {
			rows[i].Registration = &ExamRegistration{ScheduleID: g.ScheduleID, SessionID: g.SessionID, SessionAt: g.SessionAt, Role: g.Role, NominatedBy: g.NominatedBy}
		}
	}
	for _, x := range results {
		i, ok := at[x.Player]
		if !ok {
			continue
		}
		if cur := rows[i].Result; cur == nil || x.GradedAt.After(cur.GradedAt) {
			rows[i].Result = &ExamResult{ScheduleID: x.ScheduleID, SessionID: x.SessionID, Target: x.Target, State: x.State,
				Wins: x.Tally.Wins, Games: x.Tally.Games, GradedAt: x.GradedAt}
		}
	}
}

// sortKey is a row's value in one column: a number or a text.
type sortKey struct {
	num float64
	str string
}

func (a sortKey) compare(b sortKey) int {
	return cmp.Or(cmp.Compare(a.num, b.num), strings.Compare(a.str, b.str))
}

// missing is the sort value of no value (a number JSON can carry, below
// every real one).
const missing = -1e18

// keyOf is the row's value in the column. Missing values (no certified
// rank, no last game, no exam) sort first.
func keyOf(r Row, col string) sortKey {
	n := func(x float64) sortKey { return sortKey{num: x} }
	switch col {
	case ColName:
		return sortKey{str: r.Name}
	case ColJoined:
		return n(float64(r.Joined.UnixMilli()))
	case ColScore:
		return n(float64(r.Score))
	case ColCertified:
		if r.Certified.IsZero() {
			return n(missing)
		}
		return n(float64(rankOrdinal(r.Certified)))
	case ColRating:
		return n(r.Rating)
	case ColRD:
		return n(r.RD)
	case ColGames:
		return n(float64(r.Games))
	case ColGamesWeek:
		return n(float64(r.Week.Games))
	case ColWinsWeek:
		return n(float64(r.Week.Wins))
	case ColGamesMonth:
		return n(float64(r.Month.Games))
	case ColWinsMonth:
		return n(float64(r.Month.Wins))
	case ColGamesPeriod:
		return n(float64(r.Period.Games))
	case ColWinsPeriod:
		return n(float64(r.Period.Wins))
	case ColChange:
		return n(float64(r.Change))
	case ColLastGame:
		if r.LastGame == nil {
			return n(missing)
		}
		return n(float64(r.LastGame.At.UnixMilli()))
	case ColExam:
		if r.Result == nil {
			return n(missing)
		}
		return n(float64(r.Result.GradedAt.UnixMilli()))
	}
	return sortKey{str: r.Username}
}

// rankOrdinal orders every rank: 25k lowest, 9p highest.
func rankOrdinal(r ranks.Rank) int {
	switch r.Kind() {
	case ranks.Kyu:
		return -r.Level()
	case ranks.Dan:
		return r.Level()
	case ranks.Pro:
		return 100 + r.Level()
	}
	return -1000
}

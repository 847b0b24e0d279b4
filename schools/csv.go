package schools

import (
	"encoding/csv"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/internal/csvsafe"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// Languages of the texts people read in the CSV files (and the pages).
const (
	LangZH = "zh"
	LangEN = "en"
)

// ParseLang reads a language: "zh" (and zh-CN, zh-Hans, …) or "en" (and
// en-GB, …); ok is false for others.
func ParseLang(s string) (string, bool) {
	s = strings.ToLower(strings.TrimSpace(s))
	primary, _, _ := strings.Cut(s, "-")
	primary, _, _ = strings.Cut(primary, "_")
	switch primary {
	case LangZH, LangEN:
		return primary, true
	}
	return "", false
}

// BOM starts every CSV: spreadsheet programs then read it as UTF-8 and
// show Chinese names as they are.
const BOM = "\ufeff"

// catalogue holds the CSV texts in both languages.
var catalogue = map[string]map[string]string{
	LangEN: {
		"username": "username", "name": "name", "managed": "managed account", "joined": "joined", "classes": "classes",
		"score": "ladder score", "rank": "ladder rank", "shown": "rank (%s scale)", "certified": "certified rank",
		"rating": "Glicko-2 rating", "rd": "Glicko-2 deviation", "games": "rated games",
		"games_week": "games this week", "wins_week": "wins this week", "games_month": "games this month", "wins_month": "wins this month",
		"games_period": "games %s to %s", "wins_period": "wins %s to %s", "score_then": "score on %s", "rank_then": "rank on %s",
		"change": "change since %s", "last_game": "last game", "opponent": "last opponent", "result": "last result",
		"registration": "exam registration", "exam": "latest exam", "date": "date", "password": "first password", "made_earlier": "shown by an earlier try; if lost, reset it on the student's page",
		"yes": "yes", "no": "",
		rating.ResultWin: "win", rating.ResultLoss: "loss", rating.ResultDraw: "draw",
		"ladder": "ladder", "server": "server", "chinese": "Chinese amateur",
		"certified_state": "certified", "passed": "passed", "failed": "failed", "awaiting_approval": "awaiting approval", "approved": "approved", "rejected": "rejected",
	},
	LangZH: {
		"username": "用户名", "name": "姓名", "managed": "托管账号", "joined": "加入时间", "classes": "班级",
		"score": "天梯分", "rank": "天梯段位", "shown": "段位（%s）", "certified": "认证段位",
		"rating": "Glicko-2 等级分", "rd": "Glicko-2 偏差", "games": "对局总数",
		"games_week": "本周对局", "wins_week": "本周胜局", "games_month": "本月对局", "wins_month": "本月胜局",
		"games_period": "%s 至 %s 对局", "wins_period": "%s 至 %s 胜局", "score_then": "%s 天梯分", "rank_then": "%s 段位",
		"change": "%s 以来变化", "last_game": "最近对局", "opponent": "最近对手", "result": "最近结果",
		"registration": "考试报名", "exam": "最近考试", "date": "日期", "password": "初始密码", "made_earlier": "已在之前的提交中显示；如遗失请在该学生的页面重置",
		"yes": "是", "no": "",
		rating.ResultWin: "胜", rating.ResultLoss: "负", rating.ResultDraw: "和",
		"ladder": "天梯", "server": "服务器", "chinese": "中国业余",
		"certified_state": "已认证", "passed": "通过", "failed": "未通过", "awaiting_approval": "待审批", "approved": "已批准", "rejected": "被驳回",
	},
}

func text(lang, key string) string {
	if t, ok := catalogue[lang][key]; ok {
		return t
	}
	return key
}

// rankText prints a rank in the language ("" for none).
func rankText(lang string, r ranks.Rank) string {
	switch {
	case r.IsZero():
		return ""
	case lang == LangZH:
		return r.Chinese()
	}
	return r.String()
}

// stateText is an exam result's state; "certified" has its own key, as
// the catalogue's "certified" is the column's header.
func stateText(lang, state string) string {
	if state == "certified" {
		return text(lang, "certified_state")
	}
	return text(lang, state)
}

func day(t time.Time, loc *time.Location) string { return t.In(loc).Format(DateLayout) }

func stamp(t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format("2006-01-02 15:04")
}

// WriteTableCSV writes the table's rows (all of them: ask with Limit 0)
// as CSV in the language: a byte order mark, a header row, a row per
// student; times in the school's zone.
func WriteTableCSV(w io.Writer, t Table, lang string) error {
	loc, err := time.LoadLocation(t.TimeZone)
	if err != nil {
		loc = time.UTC
	}
	tx := func(k string) string { return text(lang, k) }
	if _, err := io.WriteString(w, BOM); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	from, to, since := day(t.Period.From, loc), day(t.Period.To, loc), day(t.Since, loc)
	header := []string{tx("username"), tx("name"), tx("managed"), tx("joined"), tx("score"), tx("rank"),
		strings.Replace(tx("shown"), "%s", tx(string(t.Scale)), 1), tx("certified"), tx("rating"), tx("rd"), tx("games"),
		tx("games_week"), tx("wins_week"), tx("games_month"), tx("wins_month"),
		fill(tx("games_period"), from, to), fill(tx("wins_period"), from, to),
		fill(tx("score_then"), since), fill(tx("rank_then"), since), fill(tx("change"), since),
		tx("last_game"), tx("opponent"), tx("result"), tx("registration"), tx("exam")}
	if t.ClassID == "" {
		header = append(header, tx("classes"))
	}
	if err := cw.Write(header); err != nil {
		return err
	}
	for _, r := range t.Rows {
		managed := tx("no")
		if r.Managed {
			managed = tx("yes")
		}
		// The ranks now carry the profile's "?"; the rank then is history.
		mark := unsettledMark(r.Unsettled)
		rec := []string{csvsafe.Cell(r.Username), csvsafe.Cell(r.Name), managed, stamp(r.Joined, loc), strconv.Itoa(r.Score), rankText(lang, r.Rank) + mark,
			rankText(lang, r.Shown) + mark, rankText(lang, r.Certified), strconv.FormatFloat(r.Rating, 'f', 1, 64),
			strconv.FormatFloat(r.RD, 'f', 1, 64), strconv.Itoa(r.Games),
			strconv.Itoa(r.Week.Games), strconv.Itoa(r.Week.Wins), strconv.Itoa(r.Month.Games), strconv.Itoa(r.Month.Wins),
			strconv.Itoa(r.Period.Games), strconv.Itoa(r.Period.Wins),
			strconv.Itoa(r.ScoreThen), rankText(lang, r.RankThen), strconv.FormatInt(int64(r.Change), 10)}
		if g := r.LastGame; g != nil {
			rec = append(rec, stamp(g.At, loc), csvsafe.Cell(g.Opponent), tx(g.Result))
		} else {
			rec = append(rec, "", "", "")
		}
		if g := r.Registration; g != nil {
			rec = append(rec, csvsafe.Cell(g.ScheduleID+" "+stamp(g.SessionAt, loc)))
		} else {
			rec = append(rec, "")
		}
		if x := r.Result; x != nil {
			rec = append(rec, rankText(lang, x.Target)+" "+stateText(lang, x.State)+" "+strconv.Itoa(x.Wins)+"/"+strconv.Itoa(x.Games))
		} else {
			rec = append(rec, "")
		}
		if t.ClassID == "" {
			rec = append(rec, csvsafe.Cell(strings.Join(r.Classes, " ")))
		}
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// fill puts the values into a text's %s, in order.
func fill(t string, vs ...string) string {
	for _, v := range vs {
		t = strings.Replace(t, "%s", v, 1)
	}
	return t
}

// WriteProgressCSV writes a progress series as CSV in the language: a
// row per student and step.
func WriteProgressCSV(w io.Writer, p Progress, lang string) error {
	tx := func(k string) string { return text(lang, k) }
	if _, err := io.WriteString(w, BOM); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{tx("date"), tx("username"), tx("name"), tx("score"), tx("rank"),
		strings.Replace(tx("shown"), "%s", tx(string(p.Scale)), 1), tx("games")}); err != nil {
		return err
	}
	for _, s := range p.Series {
		for _, pt := range s.Points {
			if err := cw.Write([]string{pt.Date, csvsafe.Cell(s.Username), csvsafe.Cell(s.Name), strconv.Itoa(pt.Score), rankText(lang, pt.Rank),
				rankText(lang, pt.Shown), strconv.Itoa(pt.Games)}); err != nil {
				return err
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteNewStudentsCSV writes new managed accounts with their first
// passwords, for printing.
func WriteNewStudentsCSV(w io.Writer, students []NewStudent, lang string) error {
	if _, err := io.WriteString(w, BOM); err != nil {
		return err
	}
	cw := csv.NewWriter(w)
	if err := cw.Write([]string{text(lang, "name"), text(lang, "username"), text(lang, "password")}); err != nil {
		return err
	}
	for _, s := range students {
		pw := s.Password
		if s.MadeEarlier {
			pw = text(lang, "made_earlier")
		}
		if err := cw.Write([]string{csvsafe.Cell(s.Name), s.Username, pw}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

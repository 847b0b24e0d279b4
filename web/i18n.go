package web

import (
	"fmt"
	"net/http"
	"slices"
	"time"

	"golang.org/x/text/language"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/schools"
)

// languages the pages speak, the first the default.
var languages = []language.Tag{language.English, language.Chinese}

var matcher = language.NewMatcher(languages)

// chooseLang: the language the address asks for (?lang=zh|en, for this
// request only, so a link can be shared in one language), else the one
// the caller chose (cookie), else the best of Accept-Language, else
// English. Other values of lang are ignored.
func chooseLang(r *http.Request) string {
	if l := r.URL.Query().Get("lang"); l == "zh" || l == "en" {
		return l
	}
	if ck, err := r.Cookie(langCookie); err == nil && (ck.Value == "zh" || ck.Value == "en") {
		return ck.Value
	}
	tags, _, err := language.ParseAcceptLanguage(r.Header.Get("Accept-Language"))
	if err != nil || len(tags) == 0 {
		return "en"
	}
	_, i, conf := matcher.Match(tags...)
	if conf == language.No {
		return "en"
	}
	if languages[i] == language.Chinese {
		return "zh"
	}
	return "en"
}

// tr is the text of key in lang; a key missing (a bug the catalogue test
// catches) shows as itself.
func tr(lang, key string, args ...any) string {
	s, ok := catalogues[lang][key]
	if !ok {
		s, ok = catalogues["en"][key]
		if !ok {
			return key
		}
	}
	if len(args) > 0 {
		return fmt.Sprintf(s, args...)
	}
	return s
}

// errorDetail is what a page shows beside an error's translated code: on
// English pages the API's message (it names the field and the limit); on
// Chinese pages, where that message would be English, what fieldDetail
// says of the field it names.
func errorDetail(lang string, err error, msg string) string {
	if lang != "zh" {
		return msg
	}
	return fieldDetail(lang, api.ErrorField(err))
}

// fieldDetail is what a page in lang says of the field name at fault:
// the field's rule ("rule."+name) where it has one, else its label
// ("field."+name), so a reader never sees an API name like
// head_teachers; a name missing from fieldNames (a bug the catalogue
// test catches) as itself.
func fieldDetail(lang, name string) string {
	switch {
	case name == "":
		return ""
	case hasKey(lang, "rule."+name):
		return tr(lang, "rule."+name, ruleArgs[name]...)
	case slices.Contains(fieldNames, name):
		return tr(lang, "detail.field", tr(lang, "field."+name))
	}
	return tr(lang, "detail.field", name)
}

// fieldNames are the field names a page's error can carry, each with a
// label "field."+name in both catalogues: the inputs the forms and
// addresses send, and the names the domain errors of the pages' calls
// give them (the play form's "size" is matchmaking's "board_size").
var fieldNames = []string{
	// accounts (players)
	"username", "password", "password2", "current_password", "new_password", "new_password2", "display_name", "role",
	// the admin's forms and the account filter (players, schools, jobs)
	"acc_role", "acc_prefix", "acc_limit", "run_id", "form_key", "name", "time_zone", "head", "head_teachers", "id", "reason",
	// exam schedules and nominations (exams)
	"target_rank", "cron", "session_length", "registration_opens", "games", "games_per_candidate",
	"wins", "wins_needed", "needs_approval", "schedule",
	// the play form (matchmaking)
	"size", "board_size", "time", "time_control", "time_control.preset", "rules", "min", "max", "rank_range",
	// filters and pages in the address (rating, intake, schools)
	"rank", "q", "player", "cause", "from", "to", "since", "after", "state", "step", "by", "sort",
	// a class's managed accounts (schools)
	"names",
}

// ruleArgs fill the rules' numbers from the limits they state.
var ruleArgs = map[string][]any{
	"username":            {players.UsernameMinLen, players.UsernameMaxLen},
	"password":            {players.PasswordMinLen, players.PasswordMaxLen},
	"new_password":        {players.PasswordMinLen, players.PasswordMaxLen},
	"display_name":        {players.DisplayNameMaxLen},
	"name":                {schools.NameMax},
	"names":               {players.ManagedBatchMax, schools.NameMax},
	"games_per_candidate": {exams.MaxExamGames},
	"session_length":      {days(exams.MaxSessionLength)},
	"registration_opens":  {days(exams.MaxRegistrationOpens)},
}

// days is d in whole days, as the rules state the exams' limits.
func days(d time.Duration) int { return int(d / (24 * time.Hour)) }

func hasKey(lang, key string) bool {
	_, ok := catalogues[lang][key]
	return ok
}

package web

import (
	"fmt"
	"net/http"

	"golang.org/x/text/language"

	"github.com/weiqi-platform/rank/api"
	"github.com/weiqi-platform/rank/players"
)

// languages the pages speak, the first the default.
var languages = []language.Tag{language.English, language.Chinese}

var matcher = language.NewMatcher(languages)

// chooseLang: the language the caller chose (cookie), else the best of
// Accept-Language, else English.
func chooseLang(r *http.Request) string {
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
// Chinese pages, where that message would be English, the rule of the
// field it names ("rule."+field), else the field's name.
func errorDetail(lang string, err error, msg string) string {
	if lang != "zh" {
		return msg
	}
	f := api.ErrorField(err)
	switch {
	case f == "":
		return ""
	case hasKey(lang, "rule."+f):
		return tr(lang, "rule."+f, ruleArgs[f]...)
	}
	return tr(lang, "detail.field", f)
}

// ruleArgs fill the rules' numbers from the limits they state.
var ruleArgs = map[string][]any{
	"username":     {players.UsernameMinLen, players.UsernameMaxLen},
	"password":     {players.PasswordMinLen, players.PasswordMaxLen},
	"new_password": {players.PasswordMinLen, players.PasswordMaxLen},
	"display_name": {players.DisplayNameMaxLen},
}

func hasKey(lang, key string) bool {
	_, ok := catalogues[lang][key]
	return ok
}

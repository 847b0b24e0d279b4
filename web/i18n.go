package web

import (
	"fmt"
	"net/http"

	"golang.org/x/text/language"
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

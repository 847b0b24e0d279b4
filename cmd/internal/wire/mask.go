package wire

import (
	"net/url"
	"strings"
)

// Masked is what a secret is shown as.
const Masked = "****"

// MaskURI hides the password of a URI's user info and the values of query
// parameters that look secret, leaving the rest readable for logs. It
// works on Mongo URIs with several hosts, which net/url cannot parse.
func MaskURI(s string) string {
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok {
		return s
	}
	// The user info ends at the last '@' before the query (an unescaped
	// '@' or '/' in a password is still hidden); the hosts end at the
	// next '/' or '?'.
	pre := rest
	if q := strings.IndexByte(rest, '?'); q >= 0 {
		pre = rest[:q]
	}
	authEnd := len(rest)
	if at := strings.LastIndexByte(pre, '@'); at >= 0 {
		if user, _, hasPass := strings.Cut(rest[:at], ":"); hasPass {
			rest = user + ":" + Masked + rest[at:]
			at = len(user) + 1 + len(Masked)
		}
		if i := strings.IndexAny(rest[at:], "/?"); i >= 0 {
			authEnd = at + i
		} else {
			authEnd = len(rest)
		}
	} else if i := strings.IndexAny(rest, "/?"); i >= 0 {
		authEnd = i
	}
	head, tail := rest[:authEnd], rest[authEnd:]
	path, query, hasQuery := strings.Cut(tail, "?")
	if !hasQuery {
		return scheme + "://" + head + tail
	}
	parts := strings.Split(query, "&")
	for i, p := range parts {
		k, _, hasV := strings.Cut(p, "=")
		if hasV && secretKey(k) {
			parts[i] = k + "=" + Masked
		}
	}
	return scheme + "://" + head + path + "?" + strings.Join(parts, "&")
}

// secretKey reports whether a query parameter or setting name holds a
// secret.
func secretKey(k string) bool {
	k, _ = url.QueryUnescape(k)
	k = strings.ToLower(k)
	for _, w := range []string{"password", "secret", "token", "authmechanismproperties", "key"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	return false
}

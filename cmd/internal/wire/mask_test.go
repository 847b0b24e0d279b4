package wire

import (
	"strings"
	"testing"
)

func TestMaskURI(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", ""},
		{"mongodb://db:27017/", "mongodb://db:27017/"},
		{"mongodb://root:hunter2@db:27017/rank", "mongodb://root:****@db:27017/rank"},
		{"mongodb://root:hunter2@a:1,b:2,c:3/?replicaSet=rs0", "mongodb://root:****@a:1,b:2,c:3/?replicaSet=rs0"},
		{"mongodb+srv://u:p%40ss@cluster.example/db?retryWrites=true", "mongodb+srv://u:****@cluster.example/db?retryWrites=true"},
		{"mongodb://user@db/?authMechanism=MONGODB-AWS&authMechanismProperties=AWS_SESSION_TOKEN:abc", "mongodb://user@db/?authMechanism=MONGODB-AWS&authMechanismProperties=****"},
		{"redis://:s3cret@cache:6379/0", "redis://:****@cache:6379/0"},
		{"redis://default:s3cret@cache:6379/0?dial_timeout=3s", "redis://default:****@cache:6379/0?dial_timeout=3s"},
		{"rediss://cache:6380/1?password=s3cret", "rediss://cache:6380/1?password=****"},
		{"redis://cache:6379", "redis://cache:6379"},
		{"mongodb://a:b:c@host/x", "mongodb://a:****@host/x"},   // a ':' in the password
		{"mongodb://u:p@ss@host/x", "mongodb://u:****@host/x"},  // an unescaped '@' in the password
		{"mongodb://u:pa/ss@host/x", "mongodb://u:****@host/x"}, // an unescaped '/' in the password
		{"mongodb://host/db?appName=a@b", "mongodb://host/db?appName=a@b"},
		{"not a uri", "not a uri"},
	} {
		got := MaskURI(tc.in)
		if got != tc.want {
			t.Errorf("MaskURI(%q) = %q, want %q", tc.in, got, tc.want)
		}
		for _, secret := range []string{"hunter2", "s3cret", "p%40ss", "abc", ":c@", "p@ss", "pa/ss"} {
			if strings.Contains(tc.in, secret) && strings.Contains(got, secret) {
				t.Errorf("MaskURI(%q) = %q still shows %q", tc.in, got, secret)
			}
		}
	}
}

func FuzzMaskURI(f *testing.F) {
	f.Add("mongodb://root:hunter2@a:1,b:2/?replicaSet=rs0&password=x")
	f.Add("redis://:pw@h:1/0")
	f.Fuzz(func(t *testing.T, s string) {
		got := MaskURI(s)
		// The user info "user:password@" comes out as "user:****@".
		scheme, rest, ok := strings.Cut(s, "://")
		if !ok {
			return
		}
		at := strings.LastIndex(rest, "@")
		if at < 0 || strings.Contains(rest[:at], "?") {
			return
		}
		user, _, has := strings.Cut(rest[:at], ":")
		if want := scheme + "://" + user + ":" + Masked + "@"; has && !strings.HasPrefix(got, want) {
			t.Fatalf("MaskURI(%q) = %q, want it to start %q", s, got, want)
		}
	})
}

package main

import (
	"bytes"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestParseConfigDefaults(t *testing.T) {
	c, err := ParseConfig(nil, env(nil), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	want := defaultConfig()
	if fmt.Sprint(c) != fmt.Sprint(want) {
		t.Fatalf("defaults %+v, want %+v", c, want)
	}
	if c.Addr != ":8080" || c.DataDir != "./data" || c.MongoURI != "" || c.RedisURL != "" {
		t.Fatalf("zero-setup defaults wrong: %+v", c)
	}
}

func TestParseConfigPrecedence(t *testing.T) {
	e := env(map[string]string{
		"RANK_ADDR":            ":9000",
		"MONGO_URI":            "mongodb://u:pw@db:27017/?replicaSet=rs0",
		"REDIS_URL":            "redis://:rpw@cache:6379/2",
		"RANK_TOKEN_TTL":       "2h",
		"RANK_BODY_LIMIT":      "4096",
		"RANK_LOG_LEVEL":       "warn",
		"RANK_TRUSTED_PROXIES": "10.0.0.0/8, 192.168.1.1",
	})
	c, err := ParseConfig([]string{"--addr", "127.0.0.1:0", "--token-ttl", "90m"}, e, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		got, want any
	}{
		{"addr (flag over env)", c.Addr, "127.0.0.1:0"},
		{"token ttl (flag over env)", c.TokenTTL, 90 * time.Minute},
		{"mongo uri (env)", c.MongoURI, "mongodb://u:pw@db:27017/?replicaSet=rs0"},
		{"body limit (env)", c.BodyLimit, int64(4096)},
		{"log level (env)", c.LogLevel, slog.LevelWarn},
		{"proxies (env list)", strings.Join(c.TrustedProxies, "|"), "10.0.0.0/8|192.168.1.1"},
		{"mongo db (default)", c.MongoDB, "rank"},
	} {
		if tc.got != tc.want {
			t.Errorf("%s = %v, want %v", tc.name, tc.got, tc.want)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string // a fragment of the error
	}{
		{map[string]string{"RANK_TOKEN_TTL": "forever"}, nil, `RANK_TOKEN_TTL="forever": not a duration`},
		{map[string]string{"RANK_BODY_LIMIT": "1MB"}, nil, `RANK_BODY_LIMIT="1MB": not a whole number`},
		{map[string]string{"RANK_LOG_LEVEL": "loud"}, nil, "RANK_LOG_LEVEL"},
		{map[string]string{"RANK_LOG_FORMAT": "xml"}, nil, "text or json"},
		{map[string]string{"RANK_ADMIN_USER": "root"}, nil, "set both or neither"},
		{nil, []string{"--body-limit", "0"}, "body limit 0 must be positive"},
		{nil, []string{"--token-ttl", "-1h"}, "token TTL -1h0m0s must be positive"},
		{nil, []string{"--nope"}, "flag provided but not defined: -nope"},
		{nil, []string{"extra"}, `unexpected arguments ["extra"]`},
		{nil, []string{"--data-dir", ""}, "data dir must be set"},
	} {
		_, err := ParseConfig(tc.args, env(tc.env), &bytes.Buffer{})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseConfig(%v, %v) = %v, want an error containing %q", tc.args, tc.env, err, tc.want)
		}
	}
}

// TestConfigLogMasksSecrets: the start-up line shows every setting but no
// secret.
func TestConfigLogMasksSecrets(t *testing.T) {
	c, err := ParseConfig(nil, env(map[string]string{
		"MONGO_URI":           "mongodb://u:mongo-secret@db:27017/?replicaSet=rs0",
		"REDIS_URL":           "redis://:redis-secret@cache:6379/0",
		"RANK_ADMIN_USER":     "root",
		"RANK_ADMIN_PASSWORD": "admin-secret",
	}), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	slog.New(slog.NewTextHandler(&buf, nil)).Info("rankd starting", c.LogAttrs()...)
	line := buf.String()
	for _, secret := range []string{"mongo-secret", "redis-secret", "admin-secret"} {
		if strings.Contains(line, secret) {
			t.Errorf("start-up line shows %s: %s", secret, line)
		}
	}
	for _, want := range []string{`mongo-uri="mongodb://u:****@db:27017/?replicaSet=rs0"`, "redis-url=redis://:****@cache:6379/0", "admin-password=****", "admin-user=root", "token-ttl=24h0m0s"} {
		if !strings.Contains(line, want) {
			t.Errorf("start-up line lacks %s: %s", want, line)
		}
	}
}

func TestHelpExitsZero(t *testing.T) {
	var out bytes.Buffer
	if code := run(t.Context(), []string{"-h"}, env(nil), &out); code != 0 {
		t.Fatalf("rankd -h exit %d", code)
	}
	for _, want := range []string{"-mongo-uri", "$MONGO_URI", "-redis-url", "$RANK_ADMIN_PASSWORD"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("usage lacks %s", want)
		}
	}
	if code := run(t.Context(), []string{"--token-ttl", "x"}, env(nil), &out); code != 2 {
		t.Fatalf("bad flag exit %d, want 2", code)
	}
}

// The page settings (issue 14): the abort window, public reads and the
// CORS origins reach the application; "*" and what is no origin are
// refused at start.
func TestParseConfigPageSettings(t *testing.T) {
	c, err := ParseConfig(nil, env(map[string]string{"RANK_ABORT_WINDOW": "90s", "RANK_PUBLIC_READS": "false",
		"RANK_CORS_ORIGINS": "https://club.example, http://localhost:3000"}), &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	a := c.appConfig()
	if a.AbortWindow != 90*time.Second || a.PublicReads || strings.Join(a.CORSOrigins, "|") != "https://club.example|http://localhost:3000" {
		t.Fatalf("app config %+v", a)
	}
	if d := defaultConfig().appConfig(); !d.PublicReads || d.AbortWindow != 2*time.Minute || d.CORSOrigins != nil {
		t.Fatalf("defaults %+v", d)
	}
	for _, bad := range []string{"*", "https://*.example", "club.example", "https://club.example/", "ftp://club.example", "https://u:p@club.example"} {
		if _, err := ParseConfig(nil, env(map[string]string{"RANK_CORS_ORIGINS": bad}), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "RANK_CORS_ORIGINS") {
			t.Errorf("RANK_CORS_ORIGINS=%s: %v", bad, err)
		}
	}
	if _, err := ParseConfig([]string{"--abort-window", "0s"}, env(nil), &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "abort window") {
		t.Errorf("a zero abort window: %v", err)
	}
}

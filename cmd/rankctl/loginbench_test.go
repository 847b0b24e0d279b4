package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestLoginBench: against a fake rankd, loginbench registers its account
// once, sends every login with that account's password (or a wrong one),
// counts the answers by status, and reads the memory of a process it is
// given (here its own).
func TestLoginBench(t *testing.T) {
	var mu sync.Mutex
	registers, logins := 0, map[string]int{}
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var in struct{ Username, Password string }
		_ = json.NewDecoder(r.Body).Decode(&in)
		mu.Lock()
		defer mu.Unlock()
		switch r.URL.Path {
		case "/api/v1/auth/register":
			registers++
			w.WriteHeader(http.StatusConflict)
		case "/api/v1/auth/login":
			logins[in.Username+"/"+in.Password]++
			if in.Password == benchPassword {
				w.WriteHeader(http.StatusOK)
				return
			}
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"error":{"code":"invalid_credentials"}}`))
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	defer hs.Close()
	for _, tc := range []struct {
		args   []string
		status string
	}{{nil, "200: 30"}, {[]string{"--wrong"}, "401 invalid_credentials: 30"}} {
		registers, logins = 0, map[string]int{}
		args := append([]string{"loginbench", "--url", hs.URL, "--username", "lb", "--logins", "30", "--concurrency", "7", "--pid", strconv.Itoa(os.Getpid())}, tc.args...)
		code, out, errs := runCtl(args...)
		if code != exitOK {
			t.Fatalf("%v: exit %d: %s", tc.args, code, errs)
		}
		if registers != 1 || len(logins) != 1 {
			t.Fatalf("%v: %d registrations and logins as %v, want one account", tc.args, registers, logins)
		}
		for _, want := range []string{tc.status + "\n", "30 logins from 7 clients", "rankd after: VmHWM:"} {
			if !strings.Contains(out, want) {
				t.Errorf("%v: the output lacks %q:\n%s", tc.args, want, out)
			}
		}
	}
}

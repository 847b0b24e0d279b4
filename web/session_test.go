package web

import (
	"net/http/httptest"
	"testing"
)

func TestClientIPBelievesOnlyTrustedProxies(t *testing.T) {
	s := &Server{}
	s2, err := New(Deps{Config: Config{TrustedProxies: []string{"10.0.0.0/8", "192.168.1.1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := New(Deps{Config: Config{TrustedProxies: []string{"not-an-ip"}}}); err == nil {
		t.Error("a bad trusted proxy was taken")
	}
	for _, tc := range []struct {
		srv         *Server
		remote, xff string
		want        string
	}{
		{s, "203.0.113.5:4000", "198.51.100.7", "203.0.113.5"},                      // no proxy trusted: the peer
		{s2, "203.0.113.5:4000", "198.51.100.7", "203.0.113.5"},                     // an untrusted peer's header is ignored
		{s2, "10.1.2.3:4000", "198.51.100.7", "198.51.100.7"},                       // through a trusted proxy
		{s2, "10.1.2.3:4000", "6.6.6.6, 198.51.100.7, 192.168.1.1", "198.51.100.7"}, // the last untrusted hop
		{s2, "10.1.2.3:4000", "", "10.1.2.3"},
		{s2, "[::1]:4000", "198.51.100.7", "::1"},
	} {
		r := httptest.NewRequest("GET", "/", nil)
		r.RemoteAddr = tc.remote
		if tc.xff != "" {
			r.Header.Set("X-Forwarded-For", tc.xff)
		}
		c := &ctx{s: tc.srv, r: r}
		if got := c.clientIP(); got != tc.want {
			t.Errorf("remote %s xff %q: %s, want %s", tc.remote, tc.xff, got, tc.want)
		}
	}
}

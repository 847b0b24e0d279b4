package players

import (
	"fmt"
	"strings"
	"testing"
)

func TestHashAndVerify(t *testing.T) {
	h, err := HashPassword("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q does not record the argon2id parameters", h)
	}
	h2, err := HashPassword("correct horse battery staple")
	if err != nil {
		t.Fatal(err)
	}
	if h == h2 {
		t.Fatal("two hashes of one password are equal: the salt is not random")
	}
	for _, tc := range []struct {
		password string
		want     bool
	}{
		{"correct horse battery staple", true},
		{"correct horse battery stapl", false},
		{"Correct horse battery staple", false},
		{"", false},
	} {
		got, err := VerifyPassword(h, tc.password)
		if err != nil || got != tc.want {
			t.Errorf("VerifyPassword(%q) = %v, %v; want %v", tc.password, got, err, tc.want)
		}
	}
}

// TestVerifyHonoursStoredParameters: a hash made with other parameters (as
// after a change of the constants) still verifies.
func TestVerifyHonoursStoredParameters(t *testing.T) {
	// argon2id, m=64, t=1, p=1 of "password" with salt "somesaltsomesalt".
	const old = "$argon2id$v=19$m=64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$55PWTvddWPUD1GMbKxSff4ASfF85k9ibHJt4HlHQtBM"
	ok, err := VerifyPassword(old, "password")
	if err != nil {
		t.Fatal(err)
	}
	if !ok {
		t.Fatal("a valid hash with older parameters did not verify")
	}
}

func TestVerifyMalformed(t *testing.T) {
	for _, h := range []string{
		"",
		"plain",
		"$argon2i$v=19$m=64,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=18$m=64,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=19$m=0,t=1,p=1$c2FsdA$a2V5",
		"$argon2id$v=19$m=64,t=1,p=1$!!$a2V5",
		"$argon2id$v=19$m=64,t=1,p=1$c2FsdA$",
		"$argon2id$v=19$m=64,t=1,p=1$c2FsdA",
	} {
		if ok, err := VerifyPassword(h, "password"); err == nil || ok {
			t.Errorf("VerifyPassword(%q) = %v, %v; want an error", h, ok, err)
		}
	}
}

func FuzzVerifyPassword(f *testing.F) {
	f.Add("$argon2id$v=19$m=64,t=1,p=1$c29tZXNhbHRzb21lc2FsdA$55PWTvddWPUD1GMbKxSff4ASfF85k9ibHJt4HlHQtBM", "password")
	f.Add("$argon2id$v=19$m=8,t=1,p=1$$", "")
	f.Fuzz(func(t *testing.T, hash, password string) {
		// Bound the work a fuzzed hash may ask for.
		if strings.Contains(hash, "m=") && len(hash) > 200 {
			return
		}
		var mem, iters uint32
		var threads uint8
		if i := strings.Index(hash, "$m="); i >= 0 {
			_, _ = fmt.Sscanf(hash[i+1:], "m=%d,t=%d,p=%d", &mem, &iters, &threads)
			if mem > 1024 || iters > 4 || threads > 4 {
				return
			}
		}
		ok, err := VerifyPassword(hash, password)
		if err != nil && ok {
			t.Fatal("VerifyPassword returned true with an error")
		}
	})
}

func BenchmarkHashPassword(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := HashPassword("correct horse battery staple"); err != nil {
			b.Fatal(err)
		}
	}
}

package schools_test

import (
	"errors"
	"testing"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/schools"
)

// TestAddManagedRetriedWithItsKey: the same children's names sent again
// with the same key (a lost answer retried, a second click) make no
// second account and add no one twice, also in a class the first try
// filled; the retry's passwords are the ones that work. Without a key,
// or with another, a second set is made.
func TestAddManagedRetriedWithItsKey(t *testing.T) {
	r := newRig(t)
	c := r.class("a", 2)
	names := []string{"张伟", "Li Na"}
	_, first, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-1")
	if err != nil {
		t.Fatal(err)
	}
	cl, again, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-1")
	if err != nil {
		t.Fatalf("the retry: %v", err)
	}
	if len(cl.Students) != 2 || len(again) != 2 {
		t.Fatalf("after the retry %d students, %d accounts answered; want 2 and 2", len(cl.Students), len(again))
	}
	hist, err := r.svc.ClassHistory(bg, r.tea, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(hist); n != 2 {
		t.Errorf("the class has %d versions, want 2 (created, added once)", n)
	}
	for i := range first {
		if first[i].Username != again[i].Username || first[i].Password == again[i].Password {
			t.Fatalf("account %d: first %s/%s, retry %s/%s; want the same username with a new password", i, first[i].Username, first[i].Password, again[i].Username, again[i].Password)
		}
		if _, err := r.st.Players.Login(bg, first[i].Username, first[i].Password, "192.0.2.9"); err == nil {
			t.Errorf("%s: the first password still works", first[i].Username)
		}
		if _, err := r.st.Players.Login(bg, again[i].Username, again[i].Password, "192.0.2.9"); err != nil {
			t.Errorf("%s: the retry's password: %v", again[i].Username, err)
		}
	}
	// Another key is another request: the class is full now, and no
	// account is made for it.
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-2"); !errors.Is(err, schools.ErrClassFull) {
		t.Errorf("another key: %v, want the class full", err)
	}
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"王芳"}, "k-3"); !errors.Is(err, schools.ErrClassFull) {
		t.Errorf("another child: %v, want the class full", err)
	}
	accs, err := r.st.Players.Accounts(bg, r.admin, players.AccountQuery{Role: players.RolePlayer, Limit: players.MaxAccountsPage})
	if err != nil {
		t.Fatal(err)
	}
	managed := 0
	for _, a := range accs {
		if a.ManagedBy != "" {
			managed++
		}
	}
	if managed != 2 {
		t.Errorf("%d managed accounts, want the 2 of the first request", managed)
	}
}

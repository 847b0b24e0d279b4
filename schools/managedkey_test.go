package schools_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/weiqi-platform/rank/internal/app"
	"github.com/weiqi-platform/rank/internal/apptest"
	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
	"github.com/weiqi-platform/rank/schools"
)

// faults makes the accounts' creates fail after a number of them, and
// the class changes fail, while switched on: a process stopping halfway.
type faults struct {
	creates   atomic.Int64 // creates left before they fail; <0: no fault
	putsClass atomic.Bool
	tried     sync.Map // usernames whose create was tried
}

var errCrash = errors.New("the process stopped here")

type faultyAccounts struct {
	players.Store
	f *faults
}

func (s faultyAccounts) CreateAccount(ctx context.Context, a players.Account) error {
	s.f.tried.Store(a.Username, true)
	if s.f.creates.Load() >= 0 && s.f.creates.Add(-1) < 0 {
		return errCrash
	}
	return s.Store.CreateAccount(ctx, a)
}

type faultySchools struct {
	schools.Store
	f *faults
}

func (s faultySchools) PutClass(ctx context.Context, c schools.Class) error {
	if s.f.putsClass.Load() {
		return errCrash
	}
	return s.Store.PutClass(ctx, c)
}

func newFaultyRig(t *testing.T) (*rig, *faults) {
	f := &faults{}
	f.creates.Store(-1)
	r := newRig(t, apptest.Wrap(func(s app.Stores) app.Stores {
		s.Accounts, s.Schools = faultyAccounts{s.Accounts, f}, faultySchools{s.Schools, f}
		return s
	}))
	return r, f
}

func usernames(ns []schools.NewStudent) string {
	var out []string
	for _, n := range ns {
		out = append(out, n.Username)
	}
	return strings.Join(out, ",")
}

// managedCount is how many managed accounts there are.
func (r *rig) managedCount() int {
	r.t.Helper()
	accs, err := r.st.Players.Accounts(bg, r.admin, players.AccountQuery{Role: players.RolePlayer, Limit: players.MaxAccountsPage})
	if err != nil {
		r.t.Fatal(err)
	}
	n := 0
	for _, a := range accs {
		if a.ManagedBy != "" {
			n++
		}
	}
	return n
}

// hashes are the accounts' stored password hashes.
func (r *rig) hashes(ns []schools.NewStudent) []string {
	r.t.Helper()
	var out []string
	for _, n := range ns {
		a, err := r.st.Players.Account(bg, n.Username)
		if err != nil {
			r.t.Fatal(err)
		}
		out = append(out, a.PasswordHash)
	}
	return out
}

func (r *rig) canLogin(n schools.NewStudent) bool {
	_, err := r.st.Players.Login(bg, n.Username, n.Password, "192.0.2.9")
	return err == nil
}

// TestAddManagedRetriedWithItsKey: the same names sent again with the
// same key make no second set and add no one twice, also into a class
// the first try filled; the retry answers the accounts made with no
// password and changes none (the first passwords still work). Without a
// key a second set is made, as before.
func TestAddManagedRetriedWithItsKey(t *testing.T) {
	r := newRig(t)
	c := r.class("a", 2)
	names := []string{"张伟", "Li Na"}
	_, first, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-1")
	if err != nil {
		t.Fatal(err)
	}
	before := r.hashes(first)
	cl, again, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-1")
	if err != nil {
		t.Fatalf("the retry: %v", err)
	}
	if len(cl.Students) != 2 || usernames(again) != usernames(first) {
		t.Fatalf("after the retry %d students, accounts %s; want 2 and %s", len(cl.Students), usernames(again), usernames(first))
	}
	if hist, err := r.svc.ClassHistory(bg, r.tea, c.ID); err != nil || len(hist) != 2 {
		t.Errorf("the class has %d versions (%v), want 2: created, added once", len(hist), err)
	}
	for i := range first {
		if !r.canLogin(first[i]) {
			t.Errorf("%s: the first password no longer works", first[i].Username)
		}
		if !again[i].MadeEarlier || again[i].Password != "" {
			t.Errorf("%s: the retry answered %+v, want made earlier and no password", first[i].Username, again[i])
		}
	}
	if after := r.hashes(first); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Error("the retry changed passwords")
	}
	if n := r.managedCount(); n != 2 {
		t.Errorf("%d managed accounts, want 2", n)
	}
	// Another key is another request: the class is full for it.
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k-2"); !errors.Is(err, schools.ErrClassFull) {
		t.Errorf("another key: %v, want the class full", err)
	}
	open := r.class("open", 0)
	if _, _, err := r.svc.AddManaged(bg, r.tea, open.ID, names, ""); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.svc.AddManaged(bg, r.tea, open.ID, names, ""); err != nil {
		t.Fatal(err)
	}
	if n := r.managedCount(); n != 6 {
		t.Errorf("without a key: %d managed accounts, want 2 + two sets of 2", n)
	}
}

// TestAddManagedKeyOtherNames (review finding 2): the same key with other
// names hands no one another's account: it is refused, nothing made.
func TestAddManagedKeyOtherNames(t *testing.T) {
	r := newRig(t)
	c := r.class("a", 0)
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Ann", "Bob"}, "k"); err != nil {
		t.Fatal(err)
	}
	for _, names := range [][]string{{"Cat", "Dan"}, {"Bob", "Ann"}, {"Ann"}} {
		if _, made, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k"); !errors.Is(err, rating.ErrKeyReused) || made != nil {
			t.Errorf("%v with the key: %v, %v; want ErrKeyReused", names, made, err)
		}
	}
	if n := r.managedCount(); n != 2 {
		t.Errorf("%d managed accounts, want 2", n)
	}
}

// TestAddManagedRetryTakesNoAccountOver (review finding 1): a retry
// changes no password and puts back no one who left: a child moved to
// another class stays there, one removed stays out, one signed in keeps
// their password. Another teacher of the school with the same key and
// names is another request: it gets none of the first's accounts.
func TestAddManagedRetryTakesNoAccountOver(t *testing.T) {
	r := newRig(t)
	c, other := r.class("a", 0), r.class("b", 0)
	names := []string{"Ann", "Bob", "Cat", "Dan"}
	_, first, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.svc.Move(bg, r.tea, c.ID, first[0].Username, other.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.svc.Remove(bg, r.tea, c.ID, first[3].Username, "left the school"); err != nil {
		t.Fatal(err)
	}
	if !r.canLogin(first[1]) {
		t.Fatal("the first password does not work")
	}
	before := r.hashes(first)
	cl, again, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k")
	if err != nil || len(again) != 4 {
		t.Fatalf("a retry after a move, a removal and a sign-in: %v, %v", again, err)
	}
	if _, in := cl.Member(first[0].Username); in {
		t.Error("the retry put the moved child back")
	}
	if _, in := cl.Member(first[3].Username); in {
		t.Error("the retry put the removed child back")
	}
	if after := r.hashes(first); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Error("a retry changed passwords")
	}
	if len(cl.Students) != 2 {
		t.Errorf("the class has %d students, want Bob and Cat", len(cl.Students))
	}
	// The head teacher teaches the class too: same key, same names.
	cl, theirs, err := r.svc.AddManaged(bg, r.head, c.ID, names, "k")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range theirs {
		if strings.Contains(usernames(first), n.Username) {
			t.Errorf("another teacher got the first request's account %s", n.Username)
		}
	}
	if len(cl.Students) != 6 {
		t.Errorf("the class has %d students, want 2 of the first request and 4 of the head's", len(cl.Students))
	}
	if after := r.hashes(first); strings.Join(after, ",") != strings.Join(before, ",") {
		t.Error("another teacher's request changed the first's passwords")
	}
}

// TestAddManagedRetryIntoAFullClass (review finding 3) and a process
// stopping halfway: the accounts made, the class change lost; the class
// filled meanwhile, the retry is refused and changes nothing; with room
// again it adds them, each once, their passwords those the first try
// made (shown by no answer: reset from the class).
func TestAddManagedRetryIntoAFullClass(t *testing.T) {
	r, f := newFaultyRig(t)
	c := r.class("a", 3)
	names := []string{"Ann", "Bob"}
	f.putsClass.Store(true)
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k"); !errors.Is(err, errCrash) {
		t.Fatalf("the first try: %v, want it stopped at the class change", err)
	}
	f.putsClass.Store(false)
	if n := r.managedCount(); n != 2 {
		t.Fatalf("%d managed accounts made before the stop, want 2", n)
	}
	r.join(c, "pupil1", "pupil2")
	accs, err := r.st.Players.Accounts(bg, r.admin, players.AccountQuery{Role: players.RolePlayer, Limit: players.MaxAccountsPage})
	if err != nil {
		t.Fatal(err)
	}
	hash := map[string]string{}
	for _, a := range accs {
		full, err := r.st.Players.Account(bg, a.Username)
		if err != nil || full.PasswordHash == "" {
			t.Fatalf("%s: %+v, %v", a.Username, full, err)
		}
		hash[a.Username] = full.PasswordHash
	}
	_, _, err = r.svc.AddManaged(bg, r.tea, c.ID, names, "k")
	var fe *schools.FullError
	if !errors.As(err, &fe) || fe.Adding != 2 {
		t.Fatalf("the retry into a full class: %v, want FullError adding 2", err)
	}
	for _, a := range accs {
		if now, _ := r.st.Players.Account(bg, a.Username); now.PasswordHash != hash[a.Username] {
			t.Errorf("%s: the refused retry changed the password", a.Username)
		}
	}
	if _, err := r.svc.UpdateClass(bg, r.tea, c.ID, schools.ClassPatch{Capacity: new(4)}); err != nil {
		t.Fatal(err)
	}
	cl, made, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k")
	if err != nil || len(cl.Students) != 4 || len(made) != 2 {
		t.Fatalf("the retry with room: %d students, %d accounts, %v", len(cl.Students), len(made), err)
	}
	for _, m := range made {
		if _, ok := hash[m.Username]; !ok {
			t.Errorf("the retry made a new account %s", m.Username)
		}
		if !m.MadeEarlier || m.Password != "" {
			t.Errorf("%s: %+v, want made earlier", m.Username, m)
		}
		if now, _ := r.st.Players.Account(bg, m.Username); now.PasswordHash != hash[m.Username] {
			t.Errorf("%s: the retry changed the password", m.Username)
		}
	}
	if n := r.managedCount(); n != 2 {
		t.Errorf("%d managed accounts, want 2", n)
	}
}

// TestAddManagedRetryAfterACrashHalfway: the record written and one of
// two accounts made when the process stopped; the retry makes the other
// under its recorded name and adds both, once.
func TestAddManagedRetryAfterACrashHalfway(t *testing.T) {
	r, f := newFaultyRig(t)
	c := r.class("a", 2)
	names := []string{"Ann", "Bob"}
	f.creates.Store(1)
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k"); !errors.Is(err, errCrash) {
		t.Fatalf("the first try: %v, want it stopped at the second account", err)
	}
	f.creates.Store(-1)
	if n := r.managedCount(); n != 1 {
		t.Fatalf("%d accounts made before the stop, want 1", n)
	}
	cl, made, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k")
	if err != nil || len(made) != 2 || len(cl.Students) != 2 {
		t.Fatalf("the retry: %+v, %d students, %v", made, len(cl.Students), err)
	}
	if n := r.managedCount(); n != 2 {
		t.Errorf("%d managed accounts, want 2", n)
	}
	if !made[0].MadeEarlier || made[1].MadeEarlier || !r.canLogin(made[1]) {
		t.Errorf("the retry answered %+v; want the first made earlier, the second made now with a password that works", made)
	}
}

// TestAddManagedTriesAtOnce (review of stop 32): two tries of the same
// request at once (a double submit) make each account once, and every
// password either answer shows works: no try changes a password another
// showed.
func TestAddManagedTriesAtOnce(t *testing.T) {
	r := newRig(t)
	c := r.class("a", 0)
	names := []string{"Ann", "Bob", "Cat"}
	var wg sync.WaitGroup
	answers := make([][]schools.NewStudent, 2)
	errs := make([]error, 2)
	for i := range answers {
		wg.Go(func() { _, answers[i], errs[i] = r.svc.AddManaged(bg, r.tea, c.ID, names, "k") })
	}
	wg.Wait()
	shown := map[string]int{}
	for i, a := range answers {
		if errs[i] != nil {
			t.Fatalf("try %d: %v", i, errs[i])
		}
		for _, n := range a {
			if n.Password == "" {
				continue
			}
			shown[n.Username]++
			if !r.canLogin(n) {
				t.Errorf("try %d: %s's password does not work", i, n.Username)
			}
		}
	}
	if len(shown) != 3 || usernames(answers[0]) != usernames(answers[1]) {
		t.Errorf("passwords shown %v, usernames %s and %s; want each of 3 shown once", shown, usernames(answers[0]), usernames(answers[1]))
	}
	for u, n := range shown {
		if n != 1 {
			t.Errorf("%s: shown by %d tries", u, n)
		}
	}
	if n := r.managedCount(); n != 3 {
		t.Errorf("%d managed accounts, want 3", n)
	}
	if cl, err := r.st.Schools.Class(bg, r.tea, c.ID); err != nil || len(cl.Students) != 3 {
		t.Errorf("the class: %d students, %v", len(cl.Students), err)
	}
}

// TestAddManagedKeyExpires: after ManagedKeyTTL the key is a new request.
func TestAddManagedKeyExpires(t *testing.T) {
	r := newRig(t)
	c := r.class("a", 0)
	_, first, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Ann"}, "k")
	if err != nil {
		t.Fatal(err)
	}
	r.advance(schools.ManagedKeyTTL - 1)
	if _, again, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Ann"}, "k"); err != nil || usernames(again) != usernames(first) {
		t.Fatalf("just before expiry: %s, %v; want %s", usernames(again), err, usernames(first))
	}
	r.advance(1)
	_, later, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Cat"}, "k")
	if err != nil || usernames(later) == usernames(first) {
		t.Fatalf("after expiry: %s, %v; want a new account", usernames(later), err)
	}
	if n := r.managedCount(); n != 2 {
		t.Errorf("%d managed accounts, want 2", n)
	}
}

// TestAddManagedRecordedNameTaken: a recorded username that a public
// registration took before the retry made it is named, and the retry
// makes nothing (the child's account would be someone else's).
func TestAddManagedRecordedNameTaken(t *testing.T) {
	r, f := newFaultyRig(t)
	c := r.class("a", 0)
	f.tried.Clear() // the rig's own accounts
	f.creates.Store(0)
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Ann", "Bob"}, "k"); !errors.Is(err, errCrash) {
		t.Fatalf("the first try: %v, want it stopped at the first account", err)
	}
	f.creates.Store(-1)
	var taken string
	f.tried.Range(func(k, _ any) bool { taken = k.(string); return false })
	r.player(taken)
	_, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Ann", "Bob"}, "k")
	var ce *schools.ManagedChangedError
	if !errors.As(err, &ce) || len(ce.Entries) != 1 || ce.Entries[0].Value != taken || !strings.Contains(err.Error(), "taken by another account") {
		t.Fatalf("the retry: %v, want %s named as taken", err, taken)
	}
	if n := r.managedCount(); n != 0 {
		t.Errorf("%d managed accounts made, want none", n)
	}
}

// gatedAccounts holds a try's account creates (those whose context
// carries slowKey) until gate is closed, having said so on reached.
type slowKey struct{}

type gatedAccounts struct {
	players.Store
	gate, reached chan struct{}
	once          *sync.Once
}

func (s gatedAccounts) CreateAccount(ctx context.Context, a players.Account) error {
	if ctx.Value(slowKey{}) != nil {
		s.once.Do(func() { close(s.reached) })
		<-s.gate
	}
	return s.Store.CreateAccount(ctx, a)
}

// TestAddManagedSlowTryPutsNoOneBack (review of stop 32): a try still
// making its accounts while another try finishes and the teacher then
// removes one child and moves another puts neither back: the class
// change reads the class's history again, as of the version it follows.
func TestAddManagedSlowTryPutsNoOneBack(t *testing.T) {
	gate, reached := make(chan struct{}), make(chan struct{})
	r := newRig(t, apptest.Wrap(func(s app.Stores) app.Stores {
		s.Accounts = gatedAccounts{s.Accounts, gate, reached, &sync.Once{}}
		return s
	}))
	c, other := r.class("a", 0), r.class("b", 0)
	names := []string{"Ann", "Bob", "Cat"}
	var wg sync.WaitGroup
	var slowErr error
	var slowClass schools.Class
	wg.Go(func() {
		slowClass, _, slowErr = r.svc.AddManaged(context.WithValue(bg, slowKey{}, true), r.tea, c.ID, names, "k")
	})
	<-reached // the slow try has read the class and is making accounts
	_, first, err := r.svc.AddManaged(bg, r.tea, c.ID, names, "k")
	if err != nil {
		close(gate)
		t.Fatal(err)
	}
	if _, err := r.svc.Remove(bg, r.tea, c.ID, first[0].Username, "a typo"); err != nil {
		close(gate)
		t.Fatal(err)
	}
	if _, _, err := r.svc.Move(bg, r.tea, c.ID, first[1].Username, other.ID); err != nil {
		close(gate)
		t.Fatal(err)
	}
	close(gate)
	wg.Wait()
	if slowErr != nil {
		t.Fatal(slowErr)
	}
	if _, in := slowClass.Member(first[0].Username); in {
		t.Errorf("the slow try put back the removed child %s", first[0].Username)
	}
	if _, in := slowClass.Member(first[1].Username); in {
		t.Errorf("the slow try put back the moved child %s (now in both classes)", first[1].Username)
	}
	if len(slowClass.Students) != 1 {
		t.Errorf("the class has %d students, want Cat only", len(slowClass.Students))
	}
}

// countedVersions counts the reads of classes' histories.
type countedVersions struct {
	schools.Store
	n *atomic.Int64
}

func (s countedVersions) ClassVersions(ctx context.Context, id string) ([]schools.Class, error) {
	s.n.Add(1)
	return s.Store.ClassVersions(ctx, id)
}

// TestAddManagedReadsTheHistoryOnceFirst: a first try reads the class's
// history once (in its class change; no account of its record can have
// been in the class); a retry reads it for room, and again in a class
// change only when it has someone to add.
func TestAddManagedReadsTheHistoryOnceFirst(t *testing.T) {
	var n atomic.Int64
	r := newRig(t, apptest.Wrap(func(s app.Stores) app.Stores { s.Schools = countedVersions{s.Schools, &n}; return s }))
	c := r.class("a", 0)
	n.Store(0)
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Ann"}, "k"); err != nil {
		t.Fatal(err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("a first try read the history %d times, want 1", got)
	}
	n.Store(0)
	if _, _, err := r.svc.AddManaged(bg, r.tea, c.ID, []string{"Ann"}, "k"); err != nil {
		t.Fatal(err)
	}
	if got := n.Load(); got != 1 {
		t.Errorf("a retry with nothing to add read the history %d times, want 1 (for room)", got)
	}
}

package schools

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/ranks"
	"github.com/weiqi-platform/rank/rating"
)

// addMembers adds the members to x, refusing the whole change if the
// class is closed, one of them is a member, or they do not fit.
func addMembers(x *Class, sch School, now func() bool, ms ...Member) error {
	if now() {
		return endedError(*x)
	}
	for _, m := range ms {
		if _, ok := x.Member(m.Username); ok {
			return fmt.Errorf("%w: %s", ErrAlreadyMember, m.Username)
		}
	}
	if x.Capacity > 0 && len(x.Students)+len(ms) > x.Capacity {
		return &FullError{Capacity: x.Capacity, Students: len(x.Students), Adding: len(ms)}
	}
	x.Students = append(x.Students, ms...)
	slices.SortFunc(x.Students, func(a, b Member) int { return strings.Compare(a.Username, b.Username) })
	return nil
}

// endedError refuses a change of a class that has ended.
func endedError(c Class) error {
	return fmt.Errorf("%w: the class has ended (%s)", ErrClassClosed, c.EndsOn)
}

func removeMember(x *Class, username string) error {
	i := slices.IndexFunc(x.Students, func(m Member) bool { return m.Username == username })
	if i < 0 {
		return fmt.Errorf("%w: %s", ErrNotMember, username)
	}
	x.Students = slices.Delete(x.Students, i, i+1)
	return nil
}

// Join makes the caller, a player, a student of the class whose invite
// code this is. An unknown code is ErrCodeUnknown; one past its expiry,
// or replaced by a newer one, ErrCodeExpired; a class archived or ended
// (or of an archived school) ErrClassClosed; joining twice
// ErrAlreadyMember, except for a player a teacher added by username, for
// whom the join is their consent (Member.Consented); a full class a
// *FullError.
func (s *Service) Join(ctx context.Context, by players.Principal, code string) (Class, Member, error) {
	if !by.Is(players.RolePlayer) {
		return Class{}, Member{}, &DeniedError{Need: "a player"}
	}
	norm, ok := NormalizeCode(code)
	if !ok {
		return Class{}, Member{}, fmt.Errorf("%w: %q", ErrCodeUnknown, code)
	}
	k, err := s.store.Code(ctx, norm)
	if errors.Is(err, ErrNotFound) {
		return Class{}, Member{}, fmt.Errorf("%w: %s", ErrCodeUnknown, norm)
	}
	if err != nil {
		return Class{}, Member{}, err
	}
	if !k.Expires.IsZero() && !s.clock.Now().Before(k.Expires) {
		return Class{}, Member{}, fmt.Errorf("%w: %s expired at %s", ErrCodeExpired, norm, k.Expires.UTC().Format("2006-01-02 15:04 MST"))
	}
	c, err := s.store.Class(ctx, k.ClassID)
	if errors.Is(err, ErrNotFound) {
		return Class{}, Member{}, fmt.Errorf("%w: %s", ErrCodeUnknown, norm)
	}
	if err != nil {
		return Class{}, Member{}, err
	}
	if c.Code != norm {
		return Class{}, Member{}, fmt.Errorf("%w: %s was replaced by a newer code", ErrCodeExpired, norm)
	}
	sch, err := s.store.School(ctx, c.SchoolID)
	if err != nil {
		return Class{}, Member{}, err
	}
	if c.Archived || sch.Archived {
		return Class{}, Member{}, fmt.Errorf("%w: the class is archived", ErrClassClosed)
	}
	m := Member{Username: by.Username, Since: s.now(), Via: ViaCode, By: by.Username}
	c, err = s.changeClass(ctx, c.ID, Change{What: WhatJoined, Subject: by.Username, By: by.Username}, func(x *Class) error {
		if x.Code != norm {
			return fmt.Errorf("%w: %s was replaced by a newer code", ErrCodeExpired, norm)
		}
		// A player a teacher added by username joins with the code to
		// consent: they stay where they are, now by the code.
		if i := slices.IndexFunc(x.Students, func(o Member) bool { return o.Username == by.Username }); i >= 0 && !x.Students[i].Consented() {
			if ended(*x, sch, s.clock.Now()) {
				return endedError(*x)
			}
			m.Since, m.Name, m.Managed = x.Students[i].Since, x.Students[i].Name, x.Students[i].Managed
			x.Students[i] = m
			return nil
		}
		return addMembers(x, sch, func() bool { return ended(*x, sch, s.clock.Now()) }, m)
	})
	if errors.Is(err, ErrArchived) {
		err = fmt.Errorf("%w: the class is archived", ErrClassClosed)
	}
	return c, m, err
}

// Leave takes the caller out of a class they are a student of. Their
// ladder, ledger and account are untouched.
func (s *Service) Leave(ctx context.Context, by players.Principal, classID string) (Class, error) {
	c, sch, a, err := s.classAndSchool(ctx, by, classID)
	if err != nil {
		return Class{}, err
	}
	if _, ok := c.Member(by.Username); !ok {
		if a == AccessNone {
			return Class{}, need(a, AccessMember, "class")
		}
		return Class{}, fmt.Errorf("%w: %s", ErrNotMember, by.Username)
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	return s.changeClass(ctx, classID, Change{What: WhatLeft, Subject: by.Username, By: by.Username}, func(x *Class) error {
		return removeMember(x, by.Username)
	})
}

// Remove takes a student out of the class: a teacher of the class may.
// The student keeps their ladder history (nothing of rating is touched).
func (s *Service) Remove(ctx context.Context, by players.Principal, classID, username, reason string) (Class, error) {
	_, sch, _, err := s.classFor(ctx, by, classID, AccessTeacher)
	if err != nil {
		return Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	if reason, err = cleanReason(reason); err != nil {
		return Class{}, err
	}
	name := strings.ToLower(username)
	return s.changeClass(ctx, classID, Change{What: WhatRemoved, Subject: name, By: by.Username, Reason: reason}, func(x *Class) error {
		return removeMember(x, name)
	})
}

// Move moves a student to another class of the same school: a teacher of
// the class they are in may. They are added to the other class first,
// then taken out of this one, so a crash between leaves them in both and
// the same move again completes it. A student who leaves this class (or
// is removed, or moved elsewhere) while the move runs is taken out of
// the other class again (unless a crash comes first, or they joined it
// with its code meanwhile) and the move is ErrNotMember; the same move
// run meanwhile (a retry, a second click) makes both succeed.
func (s *Service) Move(ctx context.Context, by players.Principal, fromID, username, toID string) (from, to Class, err error) {
	src, sch, _, err := s.classFor(ctx, by, fromID, AccessTeacher)
	if err != nil {
		return Class{}, Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, Class{}, err
	}
	dst, err := s.store.Class(ctx, toID)
	if errors.Is(err, ErrNotFound) {
		return Class{}, Class{}, &FieldError{"to_class", "no class " + toID}
	}
	if err != nil {
		return Class{}, Class{}, err
	}
	if dst.SchoolID != src.SchoolID || dst.ID == src.ID {
		return Class{}, Class{}, &FieldError{"to_class", "must be another class of the same school"}
	}
	name := strings.ToLower(username)
	m, inSrc := src.Member(name)
	if _, inDst := dst.Member(name); !inSrc && inDst {
		return src, dst, nil // moved already
	}
	if !inSrc {
		return Class{}, Class{}, fmt.Errorf("%w: %s", ErrNotMember, name)
	}
	// A move keeps what the player consented to: one added by username
	// is still only followed (Member.Consented).
	if m.Consented() {
		m.Via = ViaMoved
	}
	m.By, m.Since = by.Username, s.now()
	dst, err = s.changeClass(ctx, toID, Change{What: WhatMovedIn, Subject: name, By: by.Username, Reason: "from " + fromID}, func(x *Class) error {
		if _, ok := x.Member(name); ok {
			return errAlreadyThere
		}
		return addMembers(x, sch, func() bool { return ended(*x, sch, s.clock.Now()) }, m)
	})
	added := err == nil
	switch {
	case errors.Is(err, errAlreadyThere):
		if dst, err = s.store.Class(ctx, toID); err != nil {
			return Class{}, Class{}, err
		}
	case err != nil:
		return Class{}, Class{}, err
	}
	src, err = s.changeClass(ctx, fromID, Change{What: WhatMovedOut, Subject: name, By: by.Username, Reason: movedTo(toID)}, func(x *Class) error {
		return removeMember(x, name)
	})
	if errors.Is(err, ErrNotMember) {
		return s.goneDuringMove(ctx, by, fromID, toID, m, added, err)
	}
	return src, dst, err
}

var errAlreadyThere = errors.New("already in the class")

// movedTo is a moved_out change's reason; goneDuringMove reads it back.
func movedTo(toID string) string { return "to " + toID }

// goneDuringMove ends a move whose student was gone from the source when
// it came to take them out. If the same move (another call) took them
// out, the move is done. Else the student is taken out of the destination
// again if this call put them there and the membership is still as it
// wrote it (not since joined with the code: their choice); a change of
// its own, as no transaction spans two classes.
//
// Left open: a crash before this undo, or a retry that found the student
// in both classes (after a crashed move) and so added nothing, leaves
// them in the destination only, and the same move again calls that done.
// The histories show it (a moved_in with no moved_out from the source);
// a teacher may Remove them.
func (s *Service) goneDuringMove(ctx context.Context, by players.Principal, fromID, toID string, m Member, added bool, notMember error) (from, to Class, err error) {
	vs, err := s.store.ClassVersions(ctx, fromID) // every version: a rare path
	if err != nil {
		return Class{}, Class{}, err
	}
	out := takenOut(vs, m.Username)
	if out.What == WhatMovedOut && out.Reason == movedTo(toID) {
		to, err := s.store.Class(ctx, toID)
		if err != nil {
			return Class{}, Class{}, err
		}
		return vs[len(vs)-1], to, nil
	}
	if !added {
		return Class{}, Class{}, notMember
	}
	why := fmt.Sprintf("move undone: %s no longer in %s", m.Username, fromID)
	switch out.What {
	case WhatLeft:
		why = fmt.Sprintf("move undone: %s left %s during the move", m.Username, fromID)
	case WhatRemoved:
		why = fmt.Sprintf("move undone: removed from %s by %s during the move", fromID, out.By)
	case WhatMovedOut:
		why = fmt.Sprintf("move undone: moved from %s %s by %s during the move", fromID, out.Reason, out.By)
	}
	_, err = s.changeClass(ctx, toID, Change{What: WhatMovedOut, Subject: m.Username, By: by.Username, Reason: why}, func(x *Class) error {
		i := slices.IndexFunc(x.Students, func(o Member) bool { return o.Username == m.Username })
		if i < 0 || !sameMember(x.Students[i], m) {
			return errNothingToUndo
		}
		x.Students = slices.Delete(x.Students, i, i+1)
		return nil
	})
	if err != nil && !errors.Is(err, errNothingToUndo) {
		return Class{}, Class{}, err
	}
	return Class{}, Class{}, notMember
}

var errNothingToUndo = errors.New("nothing to undo")

// takenOut returns the change of the latest version that took the
// student out of the class (versions oldest first); none: the zero Change.
func takenOut(vs []Class, username string) Change {
	for i := len(vs) - 1; i > 0; i-- {
		_, before := vs[i-1].Member(username)
		_, after := vs[i].Member(username)
		if before && !after {
			return vs[i].Change
		}
	}
	return Change{}
}

// sameMember reports whether a and b are the same membership record
// (times as instants, whatever zone a store gives them back in).
func sameMember(a, b Member) bool {
	return a.Username == b.Username && a.Name == b.Name && a.Since.Equal(b.Since) && a.Via == b.Via && a.By == b.By && a.Managed == b.Managed
}

// AddStudents adds existing players to the class by username: a teacher
// of the class may. They are followed in the class's tables; the teacher
// may place them or register them for exams only once they join with
// the class's code (Member.Consented). The list is refused as a whole when any entry is bad
// (malformed, named twice, no such player, not a player's account,
// already in the class), naming each; or when they do not all fit.
func (s *Service) AddStudents(ctx context.Context, by players.Principal, classID string, usernames []string) (Class, error) {
	c, sch, _, err := s.classFor(ctx, by, classID, AccessTeacher)
	if err != nil {
		return Class{}, err
	}
	if err := writable(sch); err != nil {
		return Class{}, err
	}
	switch {
	case len(usernames) == 0:
		return Class{}, &FieldError{"usernames", "name at least one player"}
	case len(usernames) > ListMax:
		return Class{}, &FieldError{"usernames", fmt.Sprintf("at most %d at once, got %d", ListMax, len(usernames))}
	}
	var bad []EntryError
	var ms []Member
	seen := map[string]int{}
	now := s.now()
	for i, u := range usernames {
		name, err := players.NormalizeUsername(u)
		if err != nil {
			bad = append(bad, EntryError{i, u, "not a username: " + err.(*players.FieldError).Reason})
			continue
		}
		if j, dup := seen[name]; dup {
			bad = append(bad, EntryError{i, u, fmt.Sprintf("the same as entry %d", j)})
			continue
		}
		seen[name] = i
		a, err := s.accounts.Account(ctx, name)
		switch {
		case errors.Is(err, players.ErrNotFound):
			bad = append(bad, EntryError{i, u, "no such player"})
			continue
		case err != nil:
			return Class{}, err
		case a.Role != players.RolePlayer:
			bad = append(bad, EntryError{i, u, fmt.Sprintf("a %s account, not a player's", a.Role)})
			continue
		}
		if _, ok := c.Member(name); ok {
			bad = append(bad, EntryError{i, u, "already in the class"})
			continue
		}
		ms = append(ms, Member{Username: name, Since: now, Via: ViaTeacher, By: by.Username, Managed: a.ManagedBy == sch.ID})
	}
	if len(bad) > 0 {
		return Class{}, &ListError{Field: "usernames", Entries: bad}
	}
	return s.changeClass(ctx, classID, Change{What: WhatAdded, Subject: strings.Join(usernamesOf(ms), ","), By: by.Username}, func(x *Class) error {
		return addMembers(x, sch, func() bool { return ended(*x, sch, s.clock.Now()) }, ms...)
	})
}

func usernamesOf(ms []Member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Username
	}
	return out
}

// NewStudent is a managed account made for a child, with its first
// password: shown once.
type NewStudent struct {
	Name, Username, Password string
	// MadeEarlier: made by an earlier try of the same keyed request,
	// whose answer showed its password; Password is "" (a lost one is
	// reset from the class).
	MadeEarlier bool
}

// AddManaged makes a managed account for each child's name (usernames
// and first passwords generated) and adds them to the class: a teacher
// of the class may. The names are refused as a whole when any is bad
// (empty, too long, named twice), naming each, or when they do not fit.
// Accounts made before a failure to add them (a class filled meanwhile)
// stay, managed by the school, in no class.
//
// key is the request's Idempotency-Key ("" for none): with one, the
// request is recorded before any account is made and its retry makes
// or answers the same accounts, never a second set (addManagedKeyed).
func (s *Service) AddManaged(ctx context.Context, by players.Principal, classID string, names []string, key string) (Class, []NewStudent, error) {
	c, sch, _, err := s.classFor(ctx, by, classID, AccessTeacher)
	if err != nil {
		return Class{}, nil, err
	}
	if err := writable(sch); err != nil {
		return Class{}, nil, err
	}
	switch {
	case len(names) == 0:
		return Class{}, nil, &FieldError{"names", "name at least one child"}
	case len(names) > players.ManagedBatchMax:
		return Class{}, nil, &FieldError{"names", fmt.Sprintf("at most %d at once, got %d", players.ManagedBatchMax, len(names))}
	}
	var bad []EntryError
	clean := make([]string, len(names))
	seen := map[string]int{}
	for i, n := range names {
		t, err := cleanName("names", n)
		if err != nil {
			bad = append(bad, EntryError{i, n, err.(*FieldError).Reason})
			continue
		}
		key := strings.ToLower(t)
		if j, dup := seen[key]; dup {
			bad = append(bad, EntryError{i, n, fmt.Sprintf("the same as entry %d", j)})
			continue
		}
		seen[key], clean[i] = i, t
	}
	if len(bad) > 0 {
		return Class{}, nil, &ListError{Field: "names", Entries: bad}
	}
	// A keyed retry counts only those not in the class yet.
	if key == "" && c.Capacity > 0 && len(c.Students)+len(clean) > c.Capacity {
		return Class{}, nil, &FullError{Capacity: c.Capacity, Students: len(c.Students), Adding: len(clean)}
	}
	if ended(c, sch, s.clock.Now()) {
		return Class{}, nil, endedError(c)
	}
	if key != "" {
		return s.addManagedKeyed(ctx, by, c, sch, clean, key)
	}
	made, err := s.accounts.CreateManaged(ctx, sch.ID, by.Username, clean)
	if err != nil {
		return Class{}, nil, err
	}
	now := s.now()
	ms := make([]Member, len(made))
	out := make([]NewStudent, len(made))
	for i, a := range made {
		ms[i] = Member{Username: a.Username, Name: clean[i], Since: now, Via: ViaManaged, By: by.Username, Managed: true}
		out[i] = NewStudent{Name: clean[i], Username: a.Username, Password: a.Password}
	}
	c, err = s.changeClass(ctx, classID, Change{What: WhatAdded, Subject: strings.Join(usernamesOf(ms), ","), By: by.Username}, func(x *Class) error {
		return addMembers(x, sch, func() bool { return false }, ms...)
	})
	if err != nil {
		return Class{}, nil, err
	}
	return c, out, nil
}

// studentOf reads a class the caller teaches and one of its students.
func (s *Service) studentOf(ctx context.Context, by players.Principal, classID, username string) (Class, School, Member, error) {
	c, sch, _, err := s.classFor(ctx, by, classID, AccessTeacher)
	if err != nil {
		return Class{}, School{}, Member{}, err
	}
	m, ok := c.Member(strings.ToLower(username))
	if !ok {
		return Class{}, School{}, Member{}, fmt.Errorf("%w: %s", ErrNotMember, username)
	}
	return c, sch, m, nil
}

// ResetPassword gives a managed student of the class a new random
// password (returned, shown once) and ends their sessions: a teacher of
// the class may, for an account the school manages (else
// players.ErrNotManaged).
func (s *Service) ResetPassword(ctx context.Context, by players.Principal, classID, username string) (string, error) {
	_, sch, m, err := s.studentOf(ctx, by, classID, username)
	if err != nil {
		return "", err
	}
	// A managed child another teacher only added by username is not
	// theirs: the new password would let them act as the child.
	if !m.Consented() {
		return "", errNotConsented
	}
	return s.accounts.ResetPassword(ctx, m.Username, sch.ID)
}

// Placement is a teacher's starting rank for a student.
type Placement struct {
	Rank   string // on the ladder, 9k…9d
	Reason string // required
	Key    string // idempotency key: the same placement again is applied once; "" for a fresh one
}

// Place sets a student's ladder score to the lowest score of a rank: a
// teacher of the class may, with a reason, until the student's first
// rated game (rating.ErrPlayed after it, decided by the rating service
// with the student's games in order). It is a ledger entry with cause
// placement and the teacher as actor.
func (s *Service) Place(ctx context.Context, by players.Principal, classID, username string, p Placement) (rating.Changed, error) {
	c, sch, m, err := s.studentOf(ctx, by, classID, username)
	if err != nil {
		return rating.Changed{}, err
	}
	if !m.Consented() {
		return rating.Changed{}, errNotConsented
	}
	if err := writable(sch); err != nil {
		return rating.Changed{}, err
	}
	r, err := ranks.Parse(p.Rank)
	if err != nil || !r.OnLadder() {
		return rating.Changed{}, &FieldError{"rank", fmt.Sprintf("%q is not a ladder rank (%s…%s)", p.Rank, ranks.LadderBottom, ranks.LadderTop)}
	}
	reason := strings.TrimSpace(p.Reason)
	switch n := utf8.RuneCountInString(reason); {
	case n == 0:
		return rating.Changed{}, &FieldError{"reason", "is required"}
	case n > ReasonMax:
		return rating.Changed{}, &FieldError{"reason", fmt.Sprintf("must be at most %d characters, got %d", ReasonMax, n)}
	}
	key := p.Key
	if key == "" {
		key = newID(12)
	}
	// Cheap refusal first; the rating service decides it exactly.
	st, err := s.ratings.Latest(ctx, m.Username)
	if err != nil {
		return rating.Changed{}, err
	}
	if st.Games > 0 {
		return rating.Changed{}, &rating.PlayedError{Player: m.Username, Games: st.Games}
	}
	score, _ := rating.PlacementScore(r)
	return s.ratings.Change(ctx, rating.ChangeInput{
		Key: "placement:" + c.ID + ":" + m.Username + ":" + key, Player: m.Username, Cause: rating.CausePlacement,
		CauseID: "class:" + c.ID, Score: &score, Actor: by.Username, Reason: reason, BeforeFirstGame: true,
	})
}

// Teaches reports whether the teacher teaches the player: the player is
// a student of a class the teacher has teacher access to (a teacher of
// it, or a head teacher of its school) and consented to it
// (Member.Consented). Exam nominations and withdrawals ask it.
func (s *Service) Teaches(ctx context.Context, teacher players.Principal, student string) (bool, error) {
	cs, err := s.store.Classes(ctx, ClassQuery{Student: student})
	if err != nil {
		return false, err
	}
	for _, c := range cs {
		if m, ok := c.Member(student); !ok || !m.Consented() {
			continue
		}
		sch, err := s.store.School(ctx, c.SchoolID)
		if err != nil {
			return false, err
		}
		if ClassAccess(teacher, sch, c) >= AccessTeacher {
			return true, nil
		}
	}
	return false, nil
}

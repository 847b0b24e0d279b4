package schools

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/weiqi-platform/rank/players"
	"github.com/weiqi-platform/rank/rating"
)

// ManagedKeyTTL is how long a request for managed accounts keeps its
// Idempotency-Key: a retry within it makes or answers the same accounts;
// after it, the same key is a new request.
const ManagedKeyTTL = 24 * time.Hour

// managedKeyID is the record id of a teacher's request with a key in a
// class: another class or teacher with the same key is another request.
func managedKeyID(classID, by, key string) string {
	sum := sha256.Sum256([]byte(classID + "\x00" + by + "\x00" + key))
	return hex.EncodeToString(sum[:])
}

// namesHash is the record's form of the children's names, in order.
func namesHash(names []string) string {
	sum := sha256.Sum256([]byte(strings.Join(names, "\x00")))
	return hex.EncodeToString(sum[:])
}

// addManagedKeyed is AddManaged with a key. The record (the names' hash
// and the usernames drawn) is inserted before any account is made, so a
// retry, also after a crash halfway or beside a try still running, makes
// those not made yet (their first passwords answered) and answers those
// made before with no password (MadeEarlier): no try changes a password
// another try showed, so every password shown works; a lost one is reset
// from the class (ResetPassword). The class gets each account that was
// never in it (a crash before the class change); one that was, and left
// (removed, moved), is not put back. A username another account took is
// ManagedChangedError. A class without room for those to add is
// FullError, before any account is made.
func (s *Service) addManagedKeyed(ctx context.Context, by players.Principal, c Class, sch School, names []string, key string) (Class, []NewStudent, error) {
	rec, fresh, err := s.managedRecord(ctx, c.ID, by.Username, key, names)
	if err != nil {
		return Class{}, nil, err
	}
	// A record this try stored is one no account was made for yet, so
	// no class held them: the history is read only for a retry (and again
	// in the class change, for a try beside this one).
	was := map[string]bool{}
	if !fresh {
		if was, err = s.everIn(ctx, c.ID, rec.Usernames); err != nil {
			return Class{}, nil, err
		}
	}
	adding := 0
	for _, u := range rec.Usernames {
		if !was[u] {
			adding++
		}
	}
	if c.Capacity > 0 && len(c.Students)+adding > c.Capacity {
		return Class{}, nil, &FullError{Capacity: c.Capacity, Students: len(c.Students), Adding: adding}
	}
	made, err := s.accounts.MakeRecorded(ctx, sch.ID, by.Username, rec.Usernames, rec.Created)
	if errors.Is(err, players.ErrNotManaged) {
		ce, terr := s.taken(ctx, rec, sch.ID)
		if terr != nil {
			return Class{}, nil, terr
		}
		if len(ce.Entries) > 0 {
			return Class{}, nil, ce
		}
	}
	if err != nil {
		return Class{}, nil, err
	}
	now := s.now()
	var ms []Member
	out := make([]NewStudent, len(made))
	for i, a := range made {
		out[i] = NewStudent{Name: names[i], Username: a.Username, Password: a.Password, MadeEarlier: a.Password == ""}
		if !was[a.Username] {
			ms = append(ms, Member{Username: a.Username, Name: names[i], Since: now, Via: ViaManaged, By: by.Username, Managed: true})
		}
	}
	if len(ms) == 0 {
		cl, err := s.store.Class(ctx, c.ID)
		return cl, out, err
	}
	cl, err := s.changeClass(ctx, c.ID, Change{What: WhatAdded, Subject: strings.Join(usernamesOf(ms), ","), By: by.Username}, func(x *Class) error {
		// The history again, as of x: a try beside this one may have
		// added some since the first read, and a teacher removed or
		// moved them; x's version is what this change must follow, so a
		// later removal makes it read again.
		now, err := s.everIn(ctx, c.ID, usernamesOf(ms))
		if err != nil {
			return err
		}
		var fresh []Member
		for _, m := range ms {
			if _, in := x.Member(m.Username); !in && !now[m.Username] {
				fresh = append(fresh, m)
			}
		}
		if len(fresh) == 0 {
			return errNothingToAdd // a try beside this one added them
		}
		return addMembers(x, sch, func() bool { return false }, fresh...)
	})
	if errors.Is(err, errNothingToAdd) {
		cl, err = s.store.Class(ctx, c.ID)
	}
	if err != nil {
		return Class{}, nil, err
	}
	return cl, out, nil
}

// everIn reports which of the usernames any version of the class holds:
// those the request added before, whether still there or not.
func (s *Service) everIn(ctx context.Context, classID string, usernames []string) (map[string]bool, error) {
	vs, err := s.store.ClassVersions(ctx, classID)
	if err != nil {
		return nil, err
	}
	out := map[string]bool{}
	for _, v := range vs {
		for _, u := range usernames {
			if _, ok := v.Member(u); ok {
				out[u] = true
			}
		}
	}
	return out, nil
}

// taken names the recorded usernames another account holds.
func (s *Service) taken(ctx context.Context, rec ManagedKey, school string) (*ManagedChangedError, error) {
	e := &ManagedChangedError{}
	for i, u := range rec.Usernames {
		a, err := s.accounts.Account(ctx, u)
		if errors.Is(err, players.ErrNotFound) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if !players.MadeBy(a, school, rec.By, rec.Created) {
			e.Entries = append(e.Entries, EntryError{Index: i, Value: u, Reason: "taken by another account"})
		}
	}
	return e, nil
}

// errNothingToAdd ends a retry's class change that would add no one.
var errNothingToAdd = errors.New("every student is in the class already")

// managedRecord returns the live record of the request (fresh: stored
// by this call), inserting it when there is none or the last has
// expired; the same key with other names is rating.ErrKeyReused.
func (s *Service) managedRecord(ctx context.Context, classID, by, key string, names []string) (rec ManagedKey, fresh bool, err error) {
	id, sum := managedKeyID(classID, by, key), namesHash(names)
	for range changeAttempts {
		now := s.now()
		old, err := s.store.ManagedKey(ctx, id)
		seq := int64(0)
		switch {
		case err == nil && now.Before(old.Expires):
			if old.Names != sum {
				return ManagedKey{}, false, fmt.Errorf("%w: managed accounts were made for other names with this key", rating.ErrKeyReused)
			}
			return old, false, nil
		case err == nil:
			seq = old.Seq + 1
		case !errors.Is(err, ErrNotFound):
			return ManagedKey{}, false, err
		}
		us, err := s.freeUsernames(ctx, names)
		if err != nil {
			return ManagedKey{}, false, err
		}
		r := ManagedKey{ID: id, Seq: seq, ClassID: classID, By: by, Names: sum, Usernames: us, Created: now, Expires: now.Add(ManagedKeyTTL)}
		err = s.store.CreateManagedKey(ctx, r)
		if errors.Is(err, ErrExists) {
			continue // a concurrent try of the request stored its record first: use it
		}
		if err != nil {
			return ManagedKey{}, false, err
		}
		return r, true, nil
	}
	return ManagedKey{}, false, fmt.Errorf("%w: managed accounts of class %s", ErrBusy, classID)
}

// freeUsernames draws a username per name that no account holds now (a
// name taken before the record would stand in the retry's way).
func (s *Service) freeUsernames(ctx context.Context, names []string) ([]string, error) {
	const tries = 8
	out := make([]string, len(names))
	seen := map[string]bool{}
	for i, n := range names {
		for try := 0; out[i] == ""; try++ {
			if try == tries {
				return nil, fmt.Errorf("%w: no free username for %q after %d tries", players.ErrUsernameTaken, n, tries)
			}
			u, err := players.ManagedUsername(n)
			if err != nil {
				return nil, err
			}
			if seen[u] {
				continue
			}
			_, err = s.accounts.Account(ctx, u)
			if errors.Is(err, players.ErrNotFound) {
				out[i], seen[u] = u, true
				continue
			}
			if err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

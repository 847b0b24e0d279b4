package schools

import (
	"context"
	"errors"
	"slices"
	"strings"
)

// RepairBy is who a repair's change names as its author.
const RepairBy = "system"

// RepairMovedConsentName marks RepairMovedConsent done in the store: a
// start after a complete run reads no class (moves have kept consent
// since; only a store moved by an older release needs the repair).
const RepairMovedConsentName = "moved-consent"

// maxMoveTrace bounds how many moves RepairMovedConsent follows back for
// one student; one moved more often is left as they are (cameVia says
// "", as for a history it cannot read), so that no history stops a start.
const maxMoveTrace = 256

// RepairMovedConsent takes back the consent that moves gave before moves
// kept it: a move then marked every student moved (Member.Consented), so
// a player a teacher had only added by username counted as consented in
// the class they were moved to, and its teachers could place them and
// register them for exams. Each student of an open class marked moved is
// traced back through the classes' histories to how they came; one who
// came by a teacher's adding is marked so again, by a change of the class
// (WhatConsentCorrected, naming them). A student whose history cannot be
// traced is left as they are. Safe to run again and on several replicas
// at once: rankd runs it at start, and once a run ends the store says so
// (RepairMovedConsentName) and later starts do nothing. Returns how many
// students it marked.
func (s *Service) RepairMovedConsent(ctx context.Context) (int, error) {
	if done, err := s.store.Repaired(ctx, RepairMovedConsentName); err != nil || done {
		return 0, err
	}
	schs, err := s.store.Schools(ctx, SchoolQuery{})
	if err != nil {
		return 0, err
	}
	var classes []Class
	for _, sch := range schs {
		cs, err := s.store.Classes(ctx, ClassQuery{School: sch.ID})
		if err != nil {
			return 0, err
		}
		classes = append(classes, cs...)
	}
	t := tracer{s: s, versions: map[string][]Class{}}
	fixed := 0
	for _, c := range classes {
		if c.Archived {
			continue
		}
		for _, m := range c.Students {
			if m.Via != ViaMoved {
				continue
			}
			via, err := t.cameVia(ctx, c.ID, m.Username)
			if err != nil {
				return fixed, err
			}
			if via != ViaTeacher {
				continue
			}
			name := m.Username
			_, err = s.changeClass(ctx, c.ID, Change{What: WhatConsentCorrected, Subject: name, By: RepairBy,
				Reason: "added by a teacher before a move; followed until they join with the code"}, func(x *Class) error {
				i := slices.IndexFunc(x.Students, func(o Member) bool { return o.Username == name })
				if i < 0 || x.Students[i].Via != ViaMoved {
					return errNothingToRepair // changed meanwhile, or repaired by another replica
				}
				x.Students[i].Via = ViaTeacher
				return nil
			})
			switch {
			case err == nil:
				fixed++
			case errors.Is(err, errNothingToRepair), errors.Is(err, ErrArchived):
			default:
				return fixed, err
			}
		}
	}
	return fixed, s.store.MarkRepaired(ctx, RepairMovedConsentName, s.now())
}

var errNothingToRepair = errors.New("nothing to repair")

// tracer follows a student's moves back through the classes' histories,
// reading each class's versions once.
type tracer struct {
	s        *Service
	versions map[string][]Class
}

func (t *tracer) history(ctx context.Context, id string) ([]Class, error) {
	if vs, ok := t.versions[id]; ok {
		return vs, nil
	}
	vs, err := t.s.store.ClassVersions(ctx, id)
	if errors.Is(err, ErrNotFound) {
		vs, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	slices.SortFunc(vs, func(a, b Class) int { return int(a.Version - b.Version) })
	t.versions[id] = vs
	return vs, nil
}

// cameVia is how the student of the class's latest version first came
// (ViaCode, ViaTeacher, ViaManaged), following their moves back, or ""
// when the histories do not say (or go back more than maxMoveTrace
// moves).
func (t *tracer) cameVia(ctx context.Context, classID, name string) (string, error) {
	vs, err := t.history(ctx, classID)
	if err != nil || len(vs) == 0 {
		return "", err
	}
	at := len(vs) - 1
	for range maxMoveTrace {
		m, ok := vs[at].Member(name)
		if !ok {
			return "", nil
		}
		if m.Via != ViaMoved {
			return m.Via, nil
		}
		// The version their stay began with: a move in from another class.
		for at > 0 {
			if _, ok := vs[at-1].Member(name); !ok {
				break
			}
			at--
		}
		ch := vs[at].Change
		from, ok := strings.CutPrefix(ch.Reason, "from ")
		if ch.What != WhatMovedIn || ch.Subject != name || !ok {
			return "", nil
		}
		src, err := t.history(ctx, from)
		if err != nil {
			return "", err
		}
		// In the source, the version before the move took them out (the
		// move changes the destination first: the first moved_out to here
		// not before it; two moves of one student within a millisecond
		// are not told apart), else the last one written before the move
		// that still had them.
		next := -1
		for j, v := range src {
			if v.Change.What == WhatMovedOut && v.Change.Subject == name && v.Change.Reason == movedTo(classID) &&
				!v.Change.At.Before(ch.At) && j > 0 {
				next = j - 1
				break
			}
		}
		if next < 0 {
			for j := len(src) - 1; j >= 0; j-- {
				if _, in := src[j].Member(name); in && !src[j].Change.At.After(ch.At) {
					next = j
					break
				}
			}
		}
		if next < 0 {
			return "", nil
		}
		classID, vs, at = from, src, next
	}
	return "", nil
}

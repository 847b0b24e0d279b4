package examdb

import (
	"time"

	"github.com/weiqi-platform/rank/exams"
	"github.com/weiqi-platform/rank/games"
	"github.com/weiqi-platform/rank/ranks"
)

// The stored shapes, kept apart from the domain types so that the
// documents do not follow every change of a Go type (the small value
// type Tally is stored as it is).

// timeControlDoc keeps a time control in whole seconds, under the keys
// schedules have always had.
type timeControlDoc struct {
	MainSeconds    int64 `bson:"mainseconds"`
	ByoYomiPeriods int64 `bson:"byoyomiperiods"`
	ByoYomiSeconds int64 `bson:"byoyomiseconds"`
}

func toTimeControlDoc(tc games.TimeControl) timeControlDoc {
	s := exams.SecondsOf(tc)
	return timeControlDoc{MainSeconds: s.MainSeconds, ByoYomiPeriods: s.ByoYomiPeriods, ByoYomiSeconds: s.ByoYomiSeconds}
}

func (d timeControlDoc) toDomain() games.TimeControl {
	return games.TimeControl{Main: time.Duration(d.MainSeconds) * time.Second, Periods: int(d.ByoYomiPeriods), Period: time.Duration(d.ByoYomiSeconds) * time.Second}
}

type scheduleDoc struct {
	ID                 string         `bson:"_id"`
	Target             string         `bson:"target"`
	Cron               string         `bson:"cron"`
	RegistrationOpens  int64          `bson:"registration_opens_ms"`
	RegistrationCloses int64          `bson:"registration_closes_ms"`
	SessionLength      int64          `bson:"session_length_ms"`
	Games              int            `bson:"games"`
	WinsNeeded         int            `bson:"wins_needed"`
	MinLadderRank      string         `bson:"min_ladder_rank"`
	NominationWaives   bool           `bson:"nomination_waives"`
	BoardSize          int            `bson:"board_size"`
	Rules              string         `bson:"rules"`
	TimeControl        timeControlDoc `bson:"time_control"`
	Rated              bool           `bson:"rated"`
	NeedsApproval      bool           `bson:"needs_approval"`
	CreatedBy          string         `bson:"created_by"`
	CreatedAt          time.Time      `bson:"created_at"`
	OpenedThrough      time.Time      `bson:"opened_through"`
}

func toScheduleDoc(s exams.Schedule) scheduleDoc {
	return scheduleDoc{
		ID: s.ID, Target: rankText(s.Target), Cron: s.Cron,
		RegistrationOpens: s.RegistrationOpens.Milliseconds(), RegistrationCloses: s.RegistrationCloses.Milliseconds(),
		SessionLength: s.SessionLength.Milliseconds(), Games: s.Games, WinsNeeded: s.WinsNeeded,
		MinLadderRank: rankText(s.MinLadderRank), NominationWaives: s.NominationWaives, BoardSize: s.BoardSize,
		Rules: s.Rules, TimeControl: toTimeControlDoc(s.TimeControl), Rated: s.Rated, NeedsApproval: s.NeedsApproval,
		CreatedBy: s.CreatedBy, CreatedAt: s.CreatedAt, OpenedThrough: s.OpenedThrough,
	}
}

func (d scheduleDoc) toDomain() (exams.Schedule, error) {
	target, err := parseRank(d.Target)
	if err != nil {
		return exams.Schedule{}, err
	}
	min, err := parseRank(d.MinLadderRank)
	if err != nil {
		return exams.Schedule{}, err
	}
	return exams.Schedule{
		ID: d.ID, Target: target, Cron: d.Cron,
		RegistrationOpens: ms(d.RegistrationOpens), RegistrationCloses: ms(d.RegistrationCloses),
		SessionLength: ms(d.SessionLength), Games: d.Games, WinsNeeded: d.WinsNeeded,
		MinLadderRank: min, NominationWaives: d.NominationWaives, BoardSize: d.BoardSize,
		Rules: d.Rules, TimeControl: d.TimeControl.toDomain(), Rated: d.Rated, NeedsApproval: d.NeedsApproval,
		CreatedBy: d.CreatedBy, CreatedAt: d.CreatedAt.UTC(), OpenedThrough: d.OpenedThrough.UTC(),
	}, nil
}

type registrationDoc struct {
	ID          string    `bson:"_id"`
	ScheduleID  string    `bson:"schedule_id"`
	SessionID   string    `bson:"session_id"`
	SessionAt   time.Time `bson:"session_at"`
	Player      string    `bson:"player"`
	Role        string    `bson:"role"`
	NominatedBy string    `bson:"nominated_by,omitempty"`
	Waived      bool      `bson:"waived"`
	LadderScore int       `bson:"ladder_score"`
	At          time.Time `bson:"at"`
}

func toRegistrationDoc(r exams.Registration) registrationDoc { return registrationDoc(r) }

func (d registrationDoc) toDomain() exams.Registration {
	r := exams.Registration(d)
	r.SessionAt, r.At = r.SessionAt.UTC(), r.At.UTC()
	return r
}

type gameDoc struct {
	ID          string         `bson:"id"`
	Black       string         `bson:"black"`
	White       string         `bson:"white"`
	BoardSize   int            `bson:"board_size"`
	Rules       string         `bson:"rules"`
	TimeControl timeControlDoc `bson:"time_control"`
	Rated       bool           `bson:"rated"`
}

// sessionDoc is written once; what happens to the session later is kept
// in the claim collections (pairingDoc, settlementDoc, moveDoc).
// StateRank is only a hint for queries (see SessionsDue).
type sessionDoc struct {
	ID         string    `bson:"_id"`
	ScheduleID string    `bson:"schedule_id"`
	At         time.Time `bson:"at"`
	Deadline   time.Time `bson:"deadline"`
	Target     string    `bson:"target"`
	WinsNeeded int       `bson:"wins_needed"`
	Games      int       `bson:"games"`
	Approval   bool      `bson:"approval"`
	StateRank  int       `bson:"state_rank"`
}

// pairingDoc is a session's pairing, _id the session id: the first
// inserted is the pairing.
type pairingDoc struct {
	ID         string         `bson:"_id"`
	Candidates []string       `bson:"candidates"`
	Examiners  []string       `bson:"examiners"`
	Games      []gameDoc      `bson:"games"`
	Short      map[string]int `bson:"short,omitempty"`
}

// settlementDoc is how one exam game counts, _id the game id.
type settlementDoc struct {
	ID        string `bson:"_id"`
	SessionID string `bson:"session_id"`
	Kind      string `bson:"kind"`
	Winner    string `bson:"winner,omitempty"`
}

// moveDoc is one state change of a session or a result, _id
// "<subject>|<from>": only one move can leave each state.
type moveDoc struct {
	ID      string    `bson:"_id"`
	Subject string    `bson:"subject"` // "session:<id>" or "result:<id>"
	From    string    `bson:"from"`
	To      string    `bson:"to"`
	At      time.Time `bson:"at"`
	By      string    `bson:"by,omitempty"`
	Reason  string    `bson:"reason,omitempty"`
}

func toGameDocs(gs []exams.Game) []gameDoc {
	out := make([]gameDoc, len(gs))
	for i, g := range gs {
		out[i] = gameDoc{ID: g.ID, Black: g.Black, White: g.White, BoardSize: g.BoardSize, Rules: g.Rules,
			TimeControl: toTimeControlDoc(g.TimeControl), Rated: g.Rated}
	}
	return out
}

func toSessionDoc(s exams.Session) sessionDoc {
	return sessionDoc{
		ID: s.ID, ScheduleID: s.ScheduleID, At: s.At, Deadline: s.Deadline, Target: rankText(s.Target),
		WinsNeeded: s.WinsNeeded, Games: s.Games, Approval: s.Approval, StateRank: sessionRank[exams.SessionPairing],
	}
}

// toDomain assembles the session from its documents. moves must be the
// session's moves; settled maps game ids to settlements.
func (d sessionDoc) toDomain(p *pairingDoc, settled map[string]settlementDoc, moves map[string]moveDoc) (exams.Session, error) {
	target, err := parseRank(d.Target)
	if err != nil {
		return exams.Session{}, err
	}
	s := exams.Session{
		ID: d.ID, ScheduleID: d.ScheduleID, At: d.At.UTC(), Deadline: d.Deadline.UTC(), Target: target,
		WinsNeeded: d.WinsNeeded, Games: d.Games, Approval: d.Approval, State: exams.SessionPairing,
		Candidates: []string{}, Examiners: []string{},
	}
	for m, ok := moves[s.State]; ok; m, ok = moves[s.State] {
		s.State = m.To
		switch m.To {
		case exams.SessionOpen:
			s.OpenedAt = m.At.UTC()
		case exams.SessionGraded:
			s.GradedAt = m.At.UTC()
		}
	}
	if p == nil {
		return s, nil
	}
	s.Paired, s.Candidates, s.Examiners, s.Short = true, p.Candidates, p.Examiners, p.Short
	for _, g := range p.Games {
		eg := exams.Game{ID: g.ID, SessionID: d.ID, Black: g.Black, White: g.White, BoardSize: g.BoardSize,
			Rules: g.Rules, TimeControl: g.TimeControl.toDomain(), Rated: g.Rated, Deadline: s.Deadline}
		if st, ok := settled[g.ID]; ok {
			eg.Settled = &exams.Settlement{Kind: st.Kind, Winner: st.Winner}
		}
		s.Pairing = append(s.Pairing, eg)
	}
	return s, nil
}

// sessionRank orders the session states for the StateRank hint.
var sessionRank = map[string]int{
	exams.SessionPairing: 0, exams.SessionOpen: 1, exams.SessionGrading: 2,
	exams.SessionGraded: 3, exams.SessionMissed: 3,
}

// resultDoc is written once; its state moves are moveDocs. StateHint is
// the state last known to a writer, only a hint for ResultsInState.
type resultDoc struct {
	ID         string      `bson:"_id"`
	SessionID  string      `bson:"session_id"`
	ScheduleID string      `bson:"schedule_id"`
	Player     string      `bson:"player"`
	Target     string      `bson:"target"`
	Tally      exams.Tally `bson:"tally"`
	WinsNeeded int         `bson:"wins_needed"`
	Evidence   []string    `bson:"evidence"`
	State      string      `bson:"state"` // as graded
	StateHint  string      `bson:"state_hint"`
	GradedAt   time.Time   `bson:"graded_at"`
}

func toResultDoc(r exams.Result) resultDoc {
	return resultDoc{
		ID: r.ID, SessionID: r.SessionID, ScheduleID: r.ScheduleID, Player: r.Player, Target: rankText(r.Target),
		Tally: r.Tally, WinsNeeded: r.WinsNeeded, Evidence: nonNil(r.Evidence), State: r.State, StateHint: r.State,
		GradedAt: r.GradedAt,
	}
}

func (d resultDoc) toDomain(moves map[string]moveDoc) (exams.Result, error) {
	target, err := parseRank(d.Target)
	if err != nil {
		return exams.Result{}, err
	}
	r := exams.Result{
		ID: d.ID, SessionID: d.SessionID, ScheduleID: d.ScheduleID, Player: d.Player, Target: target,
		Tally: d.Tally, WinsNeeded: d.WinsNeeded, Evidence: d.Evidence, State: d.State, GradedAt: d.GradedAt.UTC(),
	}
	for m, ok := moves[r.State]; ok; m, ok = moves[r.State] {
		r.State = m.To
		if m.By != "" {
			r.DecidedBy, r.Reason, r.DecidedAt = m.By, m.Reason, m.At.UTC()
		}
	}
	return r, nil
}

// resultBefore lists, for each result state, the states a result in it
// may have been graded or hinted as: a stale hint is never ahead of the
// truth, so these are all a query must look at.
var resultBefore = map[string][]string{
	exams.ResultFailed:    {exams.ResultFailed},
	exams.ResultPassed:    {exams.ResultPassed},
	exams.ResultAwaiting:  {exams.ResultAwaiting},
	exams.ResultApproved:  {exams.ResultAwaiting, exams.ResultApproved},
	exams.ResultRejected:  {exams.ResultAwaiting, exams.ResultRejected},
	exams.ResultCertified: {exams.ResultPassed, exams.ResultAwaiting, exams.ResultApproved, exams.ResultCertified},
}

func rankText(r ranks.Rank) string {
	if r.IsZero() {
		return ""
	}
	return r.String()
}

func parseRank(s string) (ranks.Rank, error) {
	var r ranks.Rank
	err := r.UnmarshalText([]byte(s))
	return r, err
}

func ms(n int64) time.Duration { return time.Duration(n) * time.Millisecond }

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
